using Supermarket.LoadTest.Reporting;

namespace Supermarket.LoadTest.Tests;

public sealed class PublishedMessagesTests
{
    // As OpenTelemetry's Prometheus exporter writes the API's histogram: one label set per outcome.
    private const string Exposition = """
        # TYPE supermarket_publish_batch_size histogram
        # HELP supermarket_publish_batch_size Purchases per published message
        supermarket_publish_batch_size_bucket{otel_scope_name="Supermarket",le="1"} 40 1732400000000
        supermarket_publish_batch_size_bucket{otel_scope_name="Supermarket",le="2"} 55 1732400000000
        supermarket_publish_batch_size_bucket{otel_scope_name="Supermarket",le="+Inf"} 100 1732400000000
        supermarket_publish_batch_size_sum{otel_scope_name="Supermarket"} 1460 1732400000000
        supermarket_publish_batch_size_count{otel_scope_name="Supermarket"} 100 1732400000000
        supermarket_publish_duration_milliseconds_count{otel_scope_name="Supermarket",outcome="confirmed"} 100 1732400000000
        """;

    [Fact]
    public void The_histograms_count_sum_and_one_purchase_bucket_are_read()
    {
        var published = PublishedMessages.Parse(Exposition);

        Assert.Equal(new PublishedMessages(100, 1460, 40), published);
        Assert.Equal(14.6, published.PurchasesPerMessage);
        Assert.Equal(0.4, published.SinglePurchaseShare);
    }

    [Fact]
    public void A_run_counts_what_was_published_since_it_started()
    {
        var run = new PublishedMessages(130, 2060, 43).Since(new PublishedMessages(100, 1460, 40));

        Assert.Equal(new PublishedMessages(30, 600, 3), run);
        Assert.Equal(20, run.PurchasesPerMessage);
    }

    [Fact]
    public void No_messages_give_no_ratios()
    {
        Assert.Null(PublishedMessages.Parse("").PurchasesPerMessage);
        Assert.Null(PublishedMessages.Parse("").SinglePurchaseShare);
    }
}
