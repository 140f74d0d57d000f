using Dapper;
using Microsoft.Extensions.Options;
using MySqlConnector;
using Supermarket.Contracts.Purchases;

namespace Supermarket.Database.IdempotencyKeys;

/// <summary>The claims in MySQL's <c>idempotency_keys</c>, inserted or read, never updated (the writers' role may not,
/// migration 0009): a claim's insert either makes it the key's first, or fails on the key's primary key, and then the
/// first claim is read. Of two requests racing with the same key, the insert of one waits for the other's to commit,
/// so there is one winner and both read it.</summary>
public sealed class IdempotencyKeyStore(IOptions<DatabaseOptions> options) : IIdempotencyKeyStore
{
    // A plain INSERT, not INSERT IGNORE: IGNORE would also turn a value that does not fit into a warning and a
    // truncated key, a claim of another key.
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
            // Committed: each statement is a transaction of its own, and the insert waited for the first claim's.
            return await connection.QuerySingleAsync<byte[]>(new CommandDefinition(FirstClaimSql, parameters, cancellationToken: cancellationToken));
        }
    }
}
