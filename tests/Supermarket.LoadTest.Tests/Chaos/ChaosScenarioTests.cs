using Supermarket.LoadTest.Chaos;

namespace Supermarket.LoadTest.Tests.Chaos;

public sealed class ChaosScenarioTests
{
    [Fact]
    public void By_default_each_deployment_and_topology_runs_its_own_scenarios()
    {
        Assert.Equal(["rabbitmq", "writer", "aggregator", "rebuild", "mariadb", "db-stall", "api", "rolling-upgrade", "late-retry"], Names(new ChaosOptions()));
        Assert.Equal(["leader-kill", "follower-kill", "node-pause"], Names(new ChaosOptions { BrokerNodes = 3 }));
        Assert.Equal(["broker-node-kill", "writer-kill", "aggregator-restart", "mariadb-restart"], Names(new ChaosOptions { InContainers = true }));
        Assert.Equal(["rabbitmq", "writer", "aggregator", "shard-replica", "replica-rebuild", "rebuild", "mariadb", "db-stall", "api", "rolling-upgrade", "late-retry"],
            Names(new ChaosOptions { AggregatorShards = 4, AggregatorReplicas = 2 }));
    }

    [Fact]
    public void The_shard_replica_scenario_named_without_replicas_is_left_out_with_a_warning()
    {
        var warnings = new List<string>();

        var chosen = ChaosScenario.Choose(new ChaosOptions { AggregatorShards = 4, Scenarios = ["shard-replica", "aggregator"] }, warnings);

        Assert.Equal(["aggregator"], chosen.Select(s => s.Name));
        Assert.Contains(warnings, warning => warning.Contains("--aggregator-replicas 2", StringComparison.Ordinal));
    }

    [Fact]
    public void The_replica_scenarios_named_without_replicas_are_left_out_with_one_warning_naming_both()
    {
        var warnings = new List<string>();

        var chosen = ChaosScenario.Choose(new ChaosOptions { AggregatorShards = 2, Scenarios = ["replica-rebuild", "writer", "shard-replica"] }, warnings);

        Assert.Equal(["writer"], chosen.Select(s => s.Name));
        Assert.Equal(["replica-rebuild and shard-replica need --aggregator-replicas 2 or more; skipping them"], warnings);
    }

    [Fact]
    public void Only_replica_rebuild_promises_an_answer_to_every_sales_question()
    {
        var chosen = ChaosScenario.Choose(new ChaosOptions { AggregatorShards = 2, AggregatorReplicas = 2, Scenarios = ["replica-rebuild"] }, []);

        Assert.Equal([ChaosScenario.ReplicaRebuild], chosen.Select(s => s.Name));
        Assert.Equal([ChaosScenario.ReplicaRebuild], ChaosScenario.All.Where(s => s.EveryQuestionAnswered).Select(s => s.Name));
        Assert.True(chosen[0].NeedsShardReplicas);
    }

    [Fact]
    public void The_api_scenario_is_left_out_with_a_warning_when_no_replica_would_serve_meanwhile()
    {
        var warnings = new List<string>();

        var chosen = ChaosScenario.Choose(new ChaosOptions { ApiReplicas = 1, Scenarios = ["api", "writer"] }, warnings);

        Assert.Equal(["writer"], chosen.Select(s => s.Name));
        Assert.Contains(warnings, warning => warning.Contains("--api-replicas 2", StringComparison.Ordinal));
    }

    [Theory]
    [InlineData("leader-kill", false, "needs --broker-nodes 3")]
    [InlineData("writer-kill", false, "only with --in-containers")]
    [InlineData("writer", true, "only without --in-containers")]
    [InlineData("typo", false, "no such scenario: typo")]
    public void A_scenario_that_cannot_run_here_is_refused_before_any_day(string scenario, bool inContainers, string error)
    {
        var refused = Assert.Throws<ArgumentException>(() =>
            ChaosScenario.Choose(new ChaosOptions { Scenarios = [scenario], InContainers = inContainers }, []));

        Assert.Contains(error, refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Each_scenario_has_its_own_back_dated_day_with_keyed_retries_and_every_store_checked()
    {
        var scenarios = ChaosScenario.Choose(new ChaosOptions { Scenarios = ["rabbitmq", "writer"], Stores = 16, PurchasesPerHour = 150 }, []);

        var first = scenarios[0].DayArguments(new ChaosOptions { Stores = 16, PurchasesPerHour = 150 }, index: 0);
        var second = scenarios[1].DayArguments(new ChaosOptions(), index: 1);

        Assert.Equal(["--stores", "16", "--purchases-per-hour", "150", "--date", "20190101", "--retry-for", "180", "--max-item-id", "10", "--check-every-store"], first);
        Assert.Equal("20190102", second[second.ToList().IndexOf("--date") + 1]);
    }

    [Fact]
    public void A_database_outage_outlasts_fault_for_and_the_stores_retry_and_the_verification_waits_longer_than_it()
    {
        var options = new ChaosOptions { FaultFor = TimeSpan.FromSeconds(5), DatabaseOutage = TimeSpan.FromSeconds(360) };
        var outage = ChaosScenario.Choose(options with { Scenarios = [ChaosScenario.DatabaseOutage] }, [])[0];

        var arguments = outage.DayArguments(options, index: 0);

        Assert.Equal(TimeSpan.FromSeconds(360), outage.FaultFor(options));
        Assert.Equal("480", arguments[arguments.ToList().IndexOf("--retry-for") + 1]);
        Assert.Equal("480", arguments[arguments.ToList().IndexOf("--verify-timeout") + 1]);
    }

    [Fact]
    public void Late_retries_send_the_same_purchases_again_under_a_run_id_fixed_by_their_day()
    {
        var lateRetry = ChaosScenario.Choose(new ChaosOptions { Scenarios = [ChaosScenario.LateRetry] }, [])[0];

        var arguments = lateRetry.DayArguments(new ChaosOptions(), index: 6);

        Assert.Equal("late-retry-20190107", arguments[arguments.ToList().IndexOf("--run-id") + 1]);
    }

    private static string[] Names(ChaosOptions options) => [.. ChaosScenario.Choose(options, []).Select(s => s.Name)];
}
