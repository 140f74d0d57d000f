using Dapper;
using MySqlConnector;
using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.Foundation;

/// <summary>The ground is real: Dapper over the MySQL connector, against the real MariaDB.</summary>
public sealed class DatabaseRoundTripTests
{
    [Fact]
    public async Task A_row_written_with_Dapper_reads_back_unchanged()
    {
        await RealServices.PrepareAsync();
        await using var connection = new MySqlConnection(TestSettings.ConnectionString());
        await connection.ExecuteAsync(
            "CREATE TABLE IF NOT EXISTS round_trip (id INT PRIMARY KEY, name VARCHAR(50), at DATETIME(6))");
        var at = new DateTime(2021, 1, 1, 12, 34, 56, 789, DateTimeKind.Unspecified);
        var id = Random.Shared.Next(1, int.MaxValue);

        await connection.ExecuteAsync("INSERT INTO round_trip (id, name, at) VALUES (@id, @name, @at)", new { id, name = "Gian Tigle ñ", at });
        var row = await connection.QuerySingleAsync<(string Name, DateTime At)>("SELECT name, at FROM round_trip WHERE id = @id", new { id });

        Assert.Equal("Gian Tigle ñ", row.Name);
        Assert.Equal(at, row.At);
    }

    [Fact]
    public async Task The_aggregators_database_user_can_read_but_not_write()
    {
        await RealServices.PrepareAsync();
        await using (var owner = new MySqlConnection(TestSettings.ConnectionString()))
        {
            await owner.ExecuteAsync("CREATE TABLE IF NOT EXISTS read_only_probe (id INT PRIMARY KEY)");
        }

        await using var reader = new MySqlConnection(TestSettings.ReaderConnectionString());
        Assert.Equal(0, await reader.ExecuteScalarAsync<long>("SELECT COUNT(*) FROM read_only_probe WHERE id < 0"));
        var refused = await Assert.ThrowsAsync<MySqlException>(() => reader.ExecuteAsync("INSERT INTO read_only_probe (id) VALUES (1)"));
        Assert.Equal(1142, refused.Number); // ER_TABLEACCESS_DENIED_ERROR
        await Assert.ThrowsAsync<MySqlException>(() => reader.ExecuteAsync("CREATE TABLE written_by_the_reader (id INT)"));
    }
}
