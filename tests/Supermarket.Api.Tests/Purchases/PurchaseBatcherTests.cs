using System.Diagnostics;
using MassTransit;
using Supermarket.Api.Purchases;
using Supermarket.Contracts.Purchases;
using Supermarket.ServiceDefaults.Observability;

namespace Supermarket.Api.Tests.Purchases;

/// <summary>Group commit: what a 201 waits for, what is published, and what never is.</summary>
public sealed class PurchaseBatcherTests
{
    private static readonly TimeSpan LongDeadline = TimeSpan.FromMinutes(1);

    [Fact]
    public async Task Purchases_waiting_together_go_in_full_messages_and_each_is_published_once()
    {
        await using var harness = IngestHarness.Create();
        await harness.StartAsync();
        var batcher = harness.Batcher(new IngestOptions { MaxBatchSize = 100 });
        var purchases = Enumerable.Range(0, 250).Select(_ => IngestHarness.Purchase()).ToList();
        var deadlines = purchases.Select(_ => new RequestDeadline(LongDeadline, CancellationToken.None)).ToList();

        // All waiting before the batcher runs: it finds 250 and sends them as 100, 100 and 50.
        var confirmed = purchases.Select((purchase, i) => batcher.SubmitAsync(purchase, deadlines[i])).ToList();
        await batcher.StartAsync(CancellationToken.None);

        Assert.All(await Task.WhenAll(confirmed), outcome => Assert.Equal(PublishOutcome.Confirmed, outcome));
        var published = await harness.PublishedAsync();
        Assert.Equal([100, 100, 50], published.Select(message => message.Length).OrderDescending());
        Assert.Equal(purchases.Select(p => p.PurchaseId).Order(), published.SelectMany(ids => ids).Order());
        await batcher.StopAsync(CancellationToken.None);
    }

    [Fact]
    public async Task A_purchase_whose_request_stopped_waiting_before_a_batch_took_it_is_never_published()
    {
        await using var harness = IngestHarness.Create();
        await harness.StartAsync();
        var batcher = harness.Batcher(new IngestOptions());
        var (late, onTime) = (IngestHarness.Purchase(), IngestHarness.Purchase());

        using var shortDeadline = new RequestDeadline(TimeSpan.FromMilliseconds(1), CancellationToken.None);
        Assert.Equal(PublishOutcome.NotPublished, await batcher.SubmitAsync(late, shortDeadline));
        using var deadline = new RequestDeadline(LongDeadline, CancellationToken.None);
        var confirmed = batcher.SubmitAsync(onTime, deadline);
        await batcher.StartAsync(CancellationToken.None);

        Assert.Equal(PublishOutcome.Confirmed, await confirmed);
        Assert.Equal([[onTime.PurchaseId]], await harness.PublishedAsync());
        await batcher.StopAsync(CancellationToken.None);
    }

    [Fact]
    public async Task A_group_whose_span_cannot_start_is_published_and_answered_all_the_same()
    {
        await using var harness = IngestHarness.Create();
        await harness.StartAsync();
        var batcher = harness.Batcher(new IngestOptions());
        // A trace listener that fails, for this test's trace alone: the other tests' groups go on.
        using var till = new Activity("a till's POST").SetIdFormat(ActivityIdFormat.W3C).Start();
        var traceOfThisTest = till.TraceId;
        using var failingListener = new ActivityListener
        {
            ShouldListenTo = source => source.Name == TelemetryRegistration.MeterName,
            Sample = (ref ActivityCreationOptions<ActivityContext> options) => options.Parent.TraceId == traceOfThisTest
                ? throw new InvalidOperationException("a trace listener that fails")
                : ActivitySamplingResult.None,
        };
        ActivitySource.AddActivityListener(failingListener);
        using var deadline = new RequestDeadline(TimeSpan.FromSeconds(2), CancellationToken.None);
        var purchase = IngestHarness.Purchase();

        var outcome = batcher.SubmitAsync(purchase, deadline);
        till.Stop();
        await batcher.StartAsync(CancellationToken.None);

        // Bounded here: before, the group was never answered and its request, taken, waited for good.
        Assert.Equal(PublishOutcome.Confirmed, await outcome.WaitAsync(TimeSpan.FromSeconds(30)));
        Assert.Equal([[purchase.PurchaseId]], await harness.PublishedAsync());
        await batcher.StopAsync(CancellationToken.None);
    }

    [Fact]
    public async Task Beyond_the_purchases_that_may_wait_a_purchase_is_refused_at_once()
    {
        await using var harness = IngestHarness.Create();
        var batcher = harness.Batcher(new IngestOptions { MaxPendingPurchases = 2 });
        using var deadline = new RequestDeadline(LongDeadline, CancellationToken.None);

        var waiting = new[] { batcher.SubmitAsync(IngestHarness.Purchase(), deadline), batcher.SubmitAsync(IngestHarness.Purchase(), deadline) };
        var third = batcher.SubmitAsync(IngestHarness.Purchase(), deadline);

        Assert.True(third.IsCompleted);
        Assert.Equal(PublishOutcome.NotPublished, await third);
        Assert.All(waiting, task => Assert.False(task.IsCompleted));
    }

    [Fact]
    public async Task With_nothing_in_flight_a_partial_batch_goes_at_once_whatever_the_linger()
    {
        await using var harness = IngestHarness.Create();
        await harness.StartAsync();
        var batcher = harness.Batcher(new IngestOptions { BatchLinger = TimeSpan.FromHours(1) });
        await batcher.StartAsync(CancellationToken.None);
        using var deadline = new RequestDeadline(LongDeadline, CancellationToken.None);

        // Had it lingered, this would wait an hour and the deadline's minute would end it false.
        Assert.Equal(PublishOutcome.Confirmed, await batcher.SubmitAsync(IngestHarness.Purchase(), deadline));
        await batcher.StopAsync(CancellationToken.None);
    }

    [Fact]
    public async Task While_a_batch_awaits_its_confirm_the_next_lingers_until_it_is_full()
    {
        var publishing = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var confirms = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var harness = IngestHarness.Create(publish => publish.UseExecuteAsync(_ =>
        {
            publishing.TrySetResult();
            return confirms.Task;
        }));
        await harness.StartAsync();
        var batcher = harness.Batcher(new IngestOptions { MaxBatchSize = 3, MaxBatchesInFlight = 2, BatchLinger = TimeSpan.FromHours(1) });
        await batcher.StartAsync(CancellationToken.None);
        using var deadline = new RequestDeadline(LongDeadline, CancellationToken.None);
        var purchases = Enumerable.Range(0, 4).Select(_ => IngestHarness.Purchase()).ToList();

        var first = batcher.SubmitAsync(purchases[0], deadline);
        await publishing.Task;
        // Each of these, taken alone, would be a batch of one beside the one in flight; they wait for each other.
        var rest = purchases.Skip(1).Select(purchase => batcher.SubmitAsync(purchase, deadline)).ToList();
        confirms.SetResult();

        Assert.Equal(PublishOutcome.Confirmed, await first);
        Assert.All(await Task.WhenAll(rest), outcome => Assert.Equal(PublishOutcome.Confirmed, outcome));
        var published = (await harness.PublishedAsync()).OrderBy(message => message.Length).ToList();
        Assert.Equal([[purchases[0].PurchaseId], [.. purchases.Skip(1).Select(p => p.PurchaseId)]], published);
        await batcher.StopAsync(CancellationToken.None);
    }

    [Fact]
    public async Task A_purchase_whose_deadline_is_near_does_not_cut_short_the_publish_of_the_others_in_its_group()
    {
        // The broker takes a second to confirm, honouring the publish's own cancellation as RabbitMQ's client does.
        await using var harness = IngestHarness.Create(publish => publish.UseExecuteAsync(context => Task.Delay(TimeSpan.FromSeconds(1), context.CancellationToken)));
        await harness.StartAsync();
        // Deadlines of about a second: a purchase is taken while a tenth of that is left for its confirm.
        var batcher = harness.Batcher(new IngestOptions { RequestDeadline = TimeSpan.FromSeconds(1) });
        var (hurried, patient) = (IngestHarness.Purchase(), IngestHarness.Purchase());
        using var nearDeadline = new RequestDeadline(TimeSpan.FromMilliseconds(300), CancellationToken.None);
        using var deadline = new RequestDeadline(LongDeadline, CancellationToken.None);

        // Both waiting before the batcher runs: one group.
        var hurriedConfirmed = batcher.SubmitAsync(hurried, nearDeadline);
        var patientConfirmed = batcher.SubmitAsync(patient, deadline);
        await batcher.StartAsync(CancellationToken.None);

        Assert.Equal(PublishOutcome.Confirmed, await patientConfirmed);
        Assert.Equal([[hurried.PurchaseId, patient.PurchaseId]], await harness.PublishedAsync());
        // Published and confirmed with its group: a 503 for it would have a till without an Idempotency-Key send it
        // again, and store it twice (#57).
        Assert.Equal(PublishOutcome.Confirmed, await hurriedConfirmed);
        await batcher.StopAsync(CancellationToken.None);
    }

    [Fact]
    public async Task A_purchase_taken_into_a_group_answers_with_its_group_even_after_its_own_deadline()
    {
        var confirms = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var harness = IngestHarness.Create(publish => publish.UseExecuteAsync(_ => confirms.Task));
        await harness.StartAsync();
        var batcher = harness.Batcher(new IngestOptions());
        var (hurried, patient) = (IngestHarness.Purchase(), IngestHarness.Purchase());
        using var nearDeadline = new RequestDeadline(TimeSpan.FromSeconds(1), CancellationToken.None);
        using var deadline = new RequestDeadline(LongDeadline, CancellationToken.None);
        var hurriedConfirmed = batcher.SubmitAsync(hurried, nearDeadline);
        var patientConfirmed = batcher.SubmitAsync(patient, deadline);
        await batcher.StartAsync(CancellationToken.None);

        // Its own deadline has passed and its group is still being published: it waits for the group's outcome.
        await Task.Delay(TimeSpan.FromSeconds(2));
        Assert.False(hurriedConfirmed.IsCompleted);
        confirms.SetResult();

        Assert.Equal(PublishOutcome.Confirmed, await hurriedConfirmed);
        Assert.Equal(PublishOutcome.Confirmed, await patientConfirmed);
        await batcher.StopAsync(CancellationToken.None);
    }

    [Fact]
    public async Task A_group_still_waiting_for_a_channel_at_its_deadline_answers_all_of_them_not_published_and_never_leaves()
    {
        // A publish held before it reaches a channel (the harness's filters run there), as one waits for a connection.
        var channel = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var harness = IngestHarness.Create(publish => publish.UseExecuteAsync(_ => channel.Task));
        await harness.StartAsync();
        var batcher = harness.Batcher(new IngestOptions { RequestDeadline = TimeSpan.FromMilliseconds(500) });
        using var first = new RequestDeadline(TimeSpan.FromMilliseconds(200), CancellationToken.None);
        using var last = new RequestDeadline(TimeSpan.FromMilliseconds(500), CancellationToken.None);
        var answers = new[] { batcher.SubmitAsync(IngestHarness.Purchase(), first), batcher.SubmitAsync(IngestHarness.Purchase(), last) };
        await batcher.StartAsync(CancellationToken.None);

        // Bounded by the group's latest deadline; given up there, so its 503 holds even when a channel comes later.
        Assert.All(await Task.WhenAll(answers).WaitAsync(TimeSpan.FromSeconds(10)), outcome => Assert.Equal(PublishOutcome.NotPublished, outcome));
        channel.SetResult();
        await batcher.StopAsync(CancellationToken.None);
        Assert.DoesNotContain(harness.Bus.Published.Select<PurchaseBatchRecorded>(), message => message.Exception is null);
    }

    [Fact]
    public async Task A_linger_never_carries_a_purchase_past_the_time_its_confirm_needs_and_such_a_purchase_is_never_published()
    {
        // The first publish waits for its confirm until the test ends; the next is confirmed at once.
        var publishing = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var confirms = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var publishes = 0;
        await using var harness = IngestHarness.Create(publish => publish.UseExecuteAsync(_ =>
        {
            publishing.TrySetResult();
            return Interlocked.Increment(ref publishes) == 1 ? confirms.Task : Task.CompletedTask;
        }));
        await harness.StartAsync();
        // A second's deadline leaves its tenth for the confirm; the linger would wait a whole second for a full group.
        var options = new IngestOptions { RequestDeadline = TimeSpan.FromSeconds(1), MaxBatchesInFlight = 2, BatchLinger = TimeSpan.FromSeconds(1) };
        var batcher = harness.Batcher(options);
        await batcher.StartAsync(CancellationToken.None);
        using var longDeadline = new RequestDeadline(LongDeadline, CancellationToken.None);
        var inFlight = batcher.SubmitAsync(IngestHarness.Purchase(), longDeadline);
        await publishing.Task;

        // Taken beside the group in flight, it lingers, but goes with time left for its confirm: a group that went with
        // none would be confirmed after its requests were told 503.
        var lingering = IngestHarness.Purchase();
        using var deadline = new RequestDeadline(options.RequestDeadline, CancellationToken.None);
        var outcome = await batcher.SubmitAsync(lingering, deadline).WaitAsync(TimeSpan.FromSeconds(10));
        confirms.SetResult();

        Assert.Equal(PublishOutcome.Confirmed, outcome);
        Assert.Equal(PublishOutcome.Confirmed, await inFlight);
        await batcher.StopAsync(CancellationToken.None);
    }
}
