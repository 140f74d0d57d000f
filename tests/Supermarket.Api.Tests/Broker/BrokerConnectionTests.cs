using Supermarket.Api.Tests.Purchases;

namespace Supermarket.Api.Tests.Broker;

/// <summary>When a POST or a question is worth trying while the broker may be gone.</summary>
public sealed class BrokerConnectionTests
{
    [Fact]
    public async Task With_the_bus_connected_publishes_and_questions_are_tried()
    {
        await using var harness = IngestHarness.Create();
        await harness.StartAsync();

        Assert.True(harness.Connection.WorthTrying());
        Assert.True(harness.Connection.CanAsk());
    }

    [Fact]
    public async Task Without_the_bus_one_publish_a_second_probes_and_a_confirm_reopens_the_way()
    {
        // A bus that never started reports itself unhealthy, as one whose broker is gone does.
        await using var harness = IngestHarness.Create();
        var connection = harness.Connection;

        Assert.False(connection.CanAsk());
        Assert.True(connection.WorthTrying());
        Assert.False(connection.WorthTrying());
        connection.Confirmed();
        Assert.True(connection.WorthTrying());
        Assert.False(connection.CanAsk());
    }
}
