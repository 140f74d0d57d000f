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
        await TestDatabase.ExecuteAsOwnerAsync("CREATE TABLE IF NOT EXISTS round_trip (id INT PRIMARY KEY, name VARCHAR(50), at DATETIME(6))");
        await using var connection = new MySqlConnection(TestSettings.OwnerConnectionString());
        var at = new DateTime(2021, 1, 1, 12, 34, 56, 789, DateTimeKind.Unspecified);
        var id = Random.Shared.Next(1, int.MaxValue);

        await connection.ExecuteAsync("INSERT INTO round_trip (id, name, at) VALUES (@id, @name, @at)", new { id, name = "Gian Tigle ñ", at });
        var row = await connection.QuerySingleAsync<(string Name, DateTime At)>("SELECT name, at FROM round_trip WHERE id = @id", new { id });

        Assert.Equal("Gian Tigle ñ", row.Name);
        Assert.Equal(at, row.At);
    }
}
