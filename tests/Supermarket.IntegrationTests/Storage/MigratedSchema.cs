using System.Text.RegularExpressions;
using Dapper;
using MySqlConnector;

namespace Supermarket.IntegrationTests.Storage;

/// <summary>A database's schema written as src/Supermarket.Database/Schema/schema.sql writes it: MariaDB's own SHOW CREATE
/// of each table, then each view, trigger and routine, by name, without what a server's settings or history put there
/// (the AUTO_INCREMENT counter, the character set and collation a table takes from the server, definers). Anything a
/// migration makes shows, so a migration that adds a view or a trigger changes the rendering too.</summary>
public static partial class MigratedSchema
{
    public static async Task<string> RenderAsync(MySqlConnection connection)
    {
        var schema = connection.Database;
        var statements = new List<string>();
        var tables = (await connection.QueryAsync<(string Name, string Type)>(
            "SELECT TABLE_NAME, TABLE_TYPE FROM information_schema.TABLES WHERE TABLE_SCHEMA = @schema", new { schema })).ToList();
        foreach (var table in Sorted(tables.Where(table => table.Type != "VIEW").Select(table => table.Name)))
        {
            statements.Add(await ShowCreateAsync(connection, $"SHOW CREATE TABLE {Quoted(table)}", "Create Table"));
        }

        foreach (var view in Sorted(tables.Where(table => table.Type == "VIEW").Select(table => table.Name)))
        {
            statements.Add(await ShowCreateAsync(connection, $"SHOW CREATE VIEW {Quoted(view)}", "Create View"));
        }

        foreach (var trigger in Sorted(await connection.QueryAsync<string>(
            "SELECT TRIGGER_NAME FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = @schema", new { schema })))
        {
            statements.Add(await ShowCreateAsync(connection, $"SHOW CREATE TRIGGER {Quoted(trigger)}", "SQL Original Statement"));
        }

        var routines = await connection.QueryAsync<(string Name, string Type)>(
            "SELECT ROUTINE_NAME, ROUTINE_TYPE FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = @schema", new { schema });
        foreach (var routine in routines.OrderBy(routine => routine.Type, StringComparer.Ordinal).ThenBy(routine => routine.Name, StringComparer.Ordinal))
        {
            var kind = routine.Type == "FUNCTION" ? "Function" : "Procedure";
            statements.Add(await ShowCreateAsync(connection, $"SHOW CREATE {kind.ToUpperInvariant()} {Quoted(routine.Name)}", $"Create {kind}"));
        }

        return string.Join("\n\n", statements.Select(statement => statement + ";")) + "\n";
    }

    private static async Task<string> ShowCreateAsync(MySqlConnection connection, string sql, string column)
    {
        var row = (IDictionary<string, object>)await connection.QuerySingleAsync(sql);
        var statement = ((string)row[column]).ReplaceLineEndings("\n");
        return ServerDefaults().Replace(statement, "");
    }

    // Ordinal, not the server's collation, so the order is the same on every server.
    private static IEnumerable<string> Sorted(IEnumerable<string> names) => names.Order(StringComparer.Ordinal);

    private static string Quoted(string name) => $"`{name.Replace("`", "``", StringComparison.Ordinal)}`";

    /// <summary>A table's AUTO_INCREMENT counter and its default character set and collation (table options only: a
    /// column's own are written without '='), and a view's, trigger's or routine's definer.</summary>
    [GeneratedRegex(@" AUTO_INCREMENT=\d+| DEFAULT CHARSET=\w+| COLLATE=\w+| ?DEFINER=`(?:[^`]|``)*`@`(?:[^`]|``)*`")]
    private static partial Regex ServerDefaults();
}
