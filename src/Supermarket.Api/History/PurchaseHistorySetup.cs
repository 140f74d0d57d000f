using Supermarket.ServiceDefaults.Configuration;

namespace Supermarket.Api.History;

public static class PurchaseHistorySetup
{
    /// <summary>What the purchase history questions need besides the bus's request clients (Broker/ApiBus): their
    /// page size, timeout and rate per caller.</summary>
    public static IHostApplicationBuilder AddPurchaseHistory(this IHostApplicationBuilder builder)
    {
        builder.Services.AddValidatedOptions<HistoryQuestionOptions>(builder.Configuration, HistoryQuestionOptions.Section);
        return builder;
    }
}
