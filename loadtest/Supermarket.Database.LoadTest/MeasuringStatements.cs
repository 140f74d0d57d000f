namespace Supermarket.Database.LoadTest;

/// <summary>The statements a measuring session sends as the database's operator (MariaDB's root, over its socket).</summary>
public static class MeasuringStatements
{
    /// <summary>The system's database dropped and made again, empty: the schema migration makes its tables at its next
    /// start, and a new ledger identity with them, so the aggregators drop their checkpoints.</summary>
    public static string EmptyDatabase(string database) =>
        $"DROP DATABASE IF EXISTS `{database}`; CREATE DATABASE `{database}` CHARACTER SET utf8mb4";
}
