using Supermarket.ServiceDefaults.Configuration;

namespace Supermarket.Api.History;

public static class PurchaseHistorySetup
{
    public static IHostApplicationBuilder AddPurchaseHistory(this IHostApplicationBuilder builder)
    {
        builder.Services.AddValidatedOptions<HistoryQuestionOptions>(builder.Configuration, HistoryQuestionOptions.Section);
        return builder;
    }
}
