using Dapper;
using Microsoft.Extensions.Options;
using MySqlConnector;
using Supermarket.Contracts.Purchases;

namespace Supermarket.Database.IdempotencyKeys;

/// <summary>The claims in MySQL's <c>idempotency_keys</c>: the insert and the read run in one statement batch on the
/// key's primary key, so two requests racing with the same key get one winner.</summary>
public sealed class IdempotencyKeyStore(IOptions<DatabaseOptions> options) : IIdempotencyKeyStore
{
    private const string ClaimSql = """
        INSERT INTO idempotency_keys (store_id, idempotency_key, request_hash, claimed_at)
        VALUES (@store, @key, @hash, UTC_TIMESTAMP(6))
        ON DUPLICATE KEY UPDATE store_id = store_id;
        SELECT request_hash FROM idempotency_keys WHERE store_id = @store AND idempotency_key = @key;
        """;

    private readonly string _connectionString = options.Value.PooledConnectionString();

    public async Task<byte[]> FirstRequestHashAsync(ClaimIdempotencyKey claim, CancellationToken cancellationToken)
    {
        await using var connection = new MySqlConnection(_connectionString);
        return await connection.QuerySingleAsync<byte[]>(new CommandDefinition(ClaimSql,
            new { store = claim.StoreId, key = System.Text.Encoding.ASCII.GetBytes(claim.Key), hash = claim.RequestHash },
            cancellationToken: cancellationToken));
    }
}
