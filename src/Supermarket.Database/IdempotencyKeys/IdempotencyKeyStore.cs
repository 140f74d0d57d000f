using Dapper;
using Microsoft.Extensions.Options;
using MySqlConnector;
using Supermarket.Contracts.Purchases;

namespace Supermarket.Database.IdempotencyKeys;

/// <summary>Inserted or read, never updated (the writers' role may not, migration 0009): of two racing claims, one
/// insert waits for the other's commit and fails on the key, so there is one winner and both read it.</summary>
public sealed class IdempotencyKeyStore(IOptions<DatabaseOptions> options) : IIdempotencyKeyStore
{
    // Not INSERT IGNORE: that would also turn a value too long into a truncated key, a claim of another key.
    private const string ClaimSql = """
        INSERT INTO idempotency_keys (store_id, idempotency_key, request_hash, claimed_at)
        VALUES (@store, @key, @hash, UTC_TIMESTAMP(6));
        """;

    private const string FirstClaimSql = "SELECT request_hash FROM idempotency_keys WHERE store_id = @store AND idempotency_key = @key;";

    private readonly string _connectionString = options.Value.PooledConnectionString();

    public async Task<byte[]> FirstRequestHashAsync(ClaimIdempotencyKey claim, CancellationToken cancellationToken)
    {
        var parameters = new { store = claim.StoreId, key = System.Text.Encoding.ASCII.GetBytes(claim.Key), hash = claim.RequestHash };
        await using var connection = new MySqlConnection(_connectionString);
        try
        {
            await connection.ExecuteAsync(new CommandDefinition(ClaimSql, parameters, cancellationToken: cancellationToken));
            return claim.RequestHash;
        }
        catch (MySqlException exception) when (exception.ErrorCode == MySqlErrorCode.DuplicateKeyEntry)
        {
            return await connection.QuerySingleAsync<byte[]>(new CommandDefinition(FirstClaimSql, parameters, cancellationToken: cancellationToken));
        }
    }
}
