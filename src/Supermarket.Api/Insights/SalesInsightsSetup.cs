using Supermarket.Contracts.Sales;
using Supermarket.ServiceDefaults.Configuration;

namespace Supermarket.Api.Insights;

public static class SalesInsightsSetup
{
    public static IHostApplicationBuilder AddSalesInsights(this IHostApplicationBuilder builder)
    {
        builder.Services.AddValidatedOptions<InsightOptions>(builder.Configuration, InsightOptions.Section);
        builder.Services.AddValidatedOptions<SalesShardOptions>(builder.Configuration, SalesShardOptions.Section);
        builder.Services.AddSingleton<SalesShardClients>();
        return builder;
    }
}
