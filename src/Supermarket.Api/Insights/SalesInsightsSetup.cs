using Supermarket.Contracts.Sales;
using Supermarket.ServiceDefaults.Configuration;

namespace Supermarket.Api.Insights;

public static class SalesInsightsSetup
{
    /// <summary>What the sales questions need: how long they wait and how many they rank, and a request client per
    /// sales shard (SalesShards:Count, the aggregators' own setting).</summary>
    public static IHostApplicationBuilder AddSalesInsights(this IHostApplicationBuilder builder)
    {
        builder.Services.AddValidatedOptions<InsightOptions>(builder.Configuration, InsightOptions.Section);
        builder.Services.AddValidatedOptions<SalesShardOptions>(builder.Configuration, SalesShardOptions.Section);
        builder.Services.AddSingleton<SalesShardClients>();
        return builder;
    }
}
