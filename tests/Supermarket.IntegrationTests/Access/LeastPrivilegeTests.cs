extern alias Writer;

using Dapper;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;
using MySqlConnector;
using RabbitMQ.Client;
using RabbitMQ.Client.Events;
using RabbitMQ.Client.Exceptions;
using Supermarket.IntegrationTests.Infrastructure;
using Supermarket.Messaging;
using Supermarket.Security;
using Supermarket.ServiceDefaults;
using Writer::Supermarket.PurchasesWriter;

namespace Supermarket.IntegrationTests.Access;

/// <summary>Each service's accounts may do what it needs and no more (docs/security.md), on the real MariaDB and
/// RabbitMQ with the users the AppHost provisions; and no service starts without a password of its own.</summary>
[Collection(nameof(SystemCollection))]
public sealed class LeastPrivilegeTests(SupermarketSystem system)
{
    private const int TableAccessDenied = 1142; // ER_TABLEACCESS_DENIED_ERROR

    [Fact]
    public async Task The_aggregators_database_user_reads_the_sales_ledger_and_nothing_else()
    {
        // The running writer has migrated the schema, which grants the ledger's two tables to the reader's role.
        _ = system.WriterUrl;
        await using var reader = new MySqlConnection(TestSettings.ReaderConnectionString());

        Assert.True(await reader.ExecuteScalarAsync<long>("SELECT COUNT(*) FROM sales_ledger") >= 0);
        Assert.Equal(1, await reader.ExecuteScalarAsync<long>("SELECT COUNT(*) FROM ledger_identity"));
        foreach (var table in new[] { "purchases", "idempotency_keys", "schema_versions" })
        {
            var refused = await Assert.ThrowsAsync<MySqlException>(() => reader.ExecuteScalarAsync<long>($"SELECT COUNT(*) FROM {table}"));
            Assert.Equal(TableAccessDenied, refused.Number);
        }

        var write = await Assert.ThrowsAsync<MySqlException>(() => reader.ExecuteAsync("DELETE FROM sales_ledger"));
        Assert.Equal(TableAccessDenied, write.Number);
    }

    [Fact]
    public async Task The_writers_database_user_reads_and_writes_rows_and_cannot_change_the_schema()
    {
        _ = system.WriterUrl;
        await using var writer = new MySqlConnection(TestSettings.ConnectionString());

        var grants = string.Join("\n", await writer.QueryAsync<string>("SHOW GRANTS"));
        foreach (var privilege in new[] { "ALL PRIVILEGES", "CREATE", "DROP", "ALTER", "INDEX", "TRIGGER", "GRANT OPTION" })
        {
            Assert.DoesNotContain(privilege, grants, StringComparison.Ordinal);
        }

        foreach (var ddl in new[] { "ALTER TABLE purchases ADD COLUMN extra INT", "CREATE TABLE extra (id INT)", "DROP TABLE idempotency_keys" })
        {
            var refused = await Assert.ThrowsAsync<MySqlException>(() => writer.ExecuteAsync(ddl));
            Assert.Equal(TableAccessDenied, refused.Number);
        }
    }

    /// <summary>What the writer's statements need, table by table (migrations 0007 and 0009), and nothing that would let its
    /// account undo what was counted (#57): no stored purchase or counted ledger entry rewritten or deleted, no claim of
    /// an Idempotency-Key rewritten (which would let the key stand for another purchase) or deleted, no hole in the
    /// ledger declared filled, no migration recorded as applied.</summary>
    [Fact]
    public async Task The_writers_database_user_cannot_rewrite_the_ledger_nor_the_bookkeeping()
    {
        _ = system.WriterUrl;
        await using var writer = new MySqlConnection(TestSettings.ConnectionString());

        foreach (var change in new[]
        {
            "UPDATE ledger_identity SET gapless_after = gapless_after + 1000",
            "UPDATE sales_ledger SET purchases = purchases + 1 ORDER BY seq DESC LIMIT 1",
            "DELETE FROM sales_ledger ORDER BY seq DESC LIMIT 1",
            "DELETE FROM purchases ORDER BY id LIMIT 1",
            "UPDATE purchases SET items = '[]' ORDER BY id LIMIT 1",
            "DELETE FROM idempotency_keys ORDER BY claimed_at LIMIT 1",
            "UPDATE idempotency_keys SET request_hash = request_hash ORDER BY claimed_at LIMIT 1", // even to write what is there
            // The claim of the release before migration 0009, refused though the key is new (docs/reliability.md).
            "INSERT INTO idempotency_keys VALUES (1, UUID(), REPEAT('x', 32), UTC_TIMESTAMP(6)) ON DUPLICATE KEY UPDATE store_id = store_id",
            "INSERT INTO schema_versions (version, name, applied_at) VALUES (999, 'forged', UTC_TIMESTAMP(6))",
        })
        {
            var refused = await Assert.ThrowsAsync<MySqlException>(() => writer.ExecuteAsync(change));
            Assert.True(refused.Number == TableAccessDenied, $"{change}: {refused.Message}");
        }
    }

    [Fact]
    public async Task The_load_tests_database_user_reads_rows_and_changes_nothing()
    {
        _ = system.WriterUrl;
        await using var verifier = new MySqlConnection(TestSettings.VerifierConnectionString());

        Assert.True(await verifier.ExecuteScalarAsync<long>("SELECT COUNT(*) FROM purchases") >= 0);
        Assert.True(await verifier.ExecuteScalarAsync<long>("SELECT COUNT(*) FROM sales_ledger") >= 0);
        foreach (var change in new[] { "DELETE FROM purchases", "UPDATE ledger_head SET last_seq = 0", "INSERT INTO idempotency_keys VALUES (1, 'k', REPEAT('x', 32), UTC_TIMESTAMP(6))" })
        {
            var refused = await Assert.ThrowsAsync<MySqlException>(() => verifier.ExecuteAsync(change));
            Assert.Equal(TableAccessDenied, refused.Number);
        }
    }

    [Fact]
    public async Task The_APIs_broker_user_can_neither_delete_nor_purge_nor_consume_the_writers_queue()
    {
        // The running writer has declared its queue; what the API's user is refused is the right, not a missing queue.
        _ = system.WriterUrl;
        await using var connection = await ConnectAsync(TestSettings.Accounts.BrokerApi);

        await AssertRefusedAsync(connection, channel => channel.QueueDeleteAsync(Topology.PurchasesWriterQueue));
        await AssertRefusedAsync(connection, channel => channel.QueuePurgeAsync(Topology.PurchasesWriterQueue));
        await AssertRefusedAsync(connection, channel => channel.BasicGetAsync(Topology.PurchasesWriterQueue, autoAck: true));
        await AssertRefusedAsync(connection, channel => channel.QueueDeleteAsync(Topology.SalesQuestionsQueue(1, 1)));
    }

    [Fact]
    public async Task The_aggregators_broker_user_cannot_touch_the_writers_queue_nor_the_writers_the_aggregators()
    {
        _ = system.WriterUrl;
        _ = system.AggregatorUrl;
        await using var aggregator = await ConnectAsync(TestSettings.Accounts.BrokerAggregator);
        await using var writer = await ConnectAsync(TestSettings.Accounts.BrokerWriter);

        await AssertRefusedAsync(aggregator, channel => channel.QueuePurgeAsync(Topology.PurchasesWriterQueue));
        await AssertRefusedAsync(writer, channel => channel.QueuePurgeAsync(Topology.SalesQuestionsQueue(1, 1)));
    }

    /// <summary>Every answer to the API, purchase-history pages included, comes back to its bus endpoint: an exchange
    /// the workers answer to and a queue of the same name, exclusive to the API's connection. The workers may publish
    /// to that exchange and nothing more: neither bind a queue of their own to it, which would copy every answer, nor
    /// consume or purge its queue. A compromised worker can disturb answers, not read them (#72).</summary>
    [Fact]
    public async Task The_workers_broker_users_answer_the_API_and_cannot_read_its_answers()
    {
        _ = system.WriterUrl;
        _ = system.AggregatorUrl;
        var answers = system.Bus.Address.AbsolutePath.Split('/')[^1];
        foreach (var (account, ownQueue) in new[]
        {
            (TestSettings.Accounts.BrokerAggregator, Topology.SalesQuestionsQueue(1, 1) + ".eavesdrop"),
            (TestSettings.Accounts.BrokerWriter, Topology.PurchasesWriterQueue + ".eavesdrop"),
        })
        {
            await using var worker = await ConnectAsync(account);
            await using (var channel = await worker.CreateChannelAsync())
            {
                // A queue of the worker's own name (its right), gone with the connection.
                await channel.QueueDeclareAsync(ownQueue, durable: false, exclusive: true, autoDelete: true);
                var refused = await Assert.ThrowsAsync<OperationInterruptedException>(() => channel.QueueBindAsync(ownQueue, answers, routingKey: ""));
                Assert.True(refused.ShutdownReason?.ReplyCode == 403, refused.ShutdownReason?.ToString());
            }

            await AssertRefusedAsync(worker, channel => channel.BasicGetAsync(answers, autoAck: false));
            await AssertRefusedAsync(worker, channel => channel.BasicConsumeAsync(answers, autoAck: false, new AsyncEventingBasicConsumer(channel)));
            await AssertRefusedAsync(worker, channel => channel.QueuePurgeAsync(answers));
        }

        // And the aggregator's answers still reach the API (a 200, which TopItemsAsync requires).
        Assert.NotNull(await InsightAnswers.TopItemsAsync(system.Api, 509));
    }

    [Theory]
    [InlineData("Broker:Password")]
    [InlineData("Database:Password")]
    [InlineData("Database:User")]
    public async Task A_service_in_Production_refuses_to_start_without_its_own_password(string unset)
    {
        var settings = TestSettings.For();
        foreach (var (key, value) in TestSettings.WriterAccounts())
        {
            settings[key] = key == unset ? null : value;
        }

        var builder = WebApplication.CreateSlimBuilder(new WebApplicationOptions { EnvironmentName = Environments.Production });
        builder.Configuration.AddInMemoryCollection(settings);
        builder.AddServiceDefaults();
        builder.AddPurchaseRecording();
        await using var app = builder.Build();

        var refused = await Assert.ThrowsAsync<OptionsValidationException>(() => app.StartAsync());

        Assert.Contains(unset, refused.Message, StringComparison.Ordinal);
    }

    private static Task<IConnection> ConnectAsync(Account account) => new ConnectionFactory
    {
        HostName = TestSettings.BrokerHost,
        Port = TestSettings.BrokerPort,
        VirtualHost = TestSettings.VirtualHost,
        UserName = account.User,
        Password = account.Password,
    }.CreateConnectionAsync();

    /// <summary>RabbitMQ closes the channel of a refused operation with 403 ACCESS_REFUSED; each try gets its own.</summary>
    private static async Task AssertRefusedAsync(IConnection connection, Func<IChannel, Task> operation)
    {
        await using var channel = await connection.CreateChannelAsync();
        var refused = await Assert.ThrowsAsync<OperationInterruptedException>(() => operation(channel));
        Assert.True(refused.ShutdownReason?.ReplyCode == 403, refused.ShutdownReason?.ToString());
    }
}
