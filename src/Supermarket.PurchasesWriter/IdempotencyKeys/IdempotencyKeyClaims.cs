using Dapper;
using MassTransit;
using Microsoft.Extensions.Options;
using MySqlConnector;
using Supermarket.Contracts.Purchases;
using Supermarket.Database;
using Supermarket.Messaging;
using Supermarket.PurchasesWriter.Recording;

namespace Supermarket.PurchasesWriter.IdempotencyKeys;

/// <summary>
/// Remembers the first request each store made with each Idempotency-Key, so the API can refuse the key for a
/// different purchase instead of merging two purchases under one id. The insert and the read run in one statement
/// batch on the key's primary key, so two requests racing with the same key get one winner.
/// </summary>
public sealed class IdempotencyKeyClaims(IOptions<DatabaseOptions> options)
    : IConsumer<ClaimIdempotencyKey>
{
    private const string ClaimSql = """
        INSERT INTO idempotency_keys (store_id, idempotency_key, request_hash, claimed_at)
        VALUES (@store, @key, @hash, UTC_TIMESTAMP(6))
        ON DUPLICATE KEY UPDATE store_id = store_id;
        SELECT request_hash FROM idempotency_keys WHERE store_id = @store AND idempotency_key = @key;
        """;

    private readonly string _connectionString = options.Value.PooledConnectionString();

    public async Task Consume(ConsumeContext<ClaimIdempotencyKey> context)
    {
        var claim = context.Message;
        var first = await FirstRequestHashAsync(claim, context.CancellationToken);
        await context.RespondAsync(new IdempotencyKeyClaimed(first.AsSpan().SequenceEqual(claim.RequestHash)));
    }

    private async Task<byte[]> FirstRequestHashAsync(ClaimIdempotencyKey claim, CancellationToken cancellationToken)
    {
        await using var connection = new MySqlConnection(_connectionString);
        return await connection.QuerySingleAsync<byte[]>(new CommandDefinition(ClaimSql,
            new { store = claim.StoreId, key = System.Text.Encoding.ASCII.GetBytes(claim.Key), hash = claim.RequestHash },
            cancellationToken: cancellationToken));
    }
}

/// <summary>A queue of its own (<see cref="Topology.IdempotencyKeysQueue"/>), so a till's claim
/// never waits behind a backlog of purchases; as many claims at once as batches, each holding a connection.</summary>
public sealed class IdempotencyKeyClaimsDefinition : ConsumerDefinition<IdempotencyKeyClaims>
{
    public IdempotencyKeyClaimsDefinition(IOptions<WriterOptions> options)
    {
        EndpointName = Topology.IdempotencyKeysQueue;
        ConcurrentMessageLimit = options.Value.BatchConcurrency;
    }
}
