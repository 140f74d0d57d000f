using MassTransit;
using Supermarket.ServiceDefaults.Configuration;
using Supermarket.ServiceDefaults.WarmUp;

namespace Supermarket.Api.Purchases;

public static class PurchaseIngestSetup
{
    public static IHostApplicationBuilder AddPurchaseIngest(this IHostApplicationBuilder builder)
    {
        builder.Services.AddValidatedOptions<IngestOptions>(builder.Configuration, IngestOptions.Section);
        builder.Services.AddSingleton<IngestMetrics>();
        builder.Services.AddSingleton<ConfirmedPublisher>();
        builder.Services.AddSingleton<IPublishObserver, RefusedPublishObserver>();
        builder.Services.AddSingleton<PurchaseBatcher>();
        builder.Services.AddHostedService(services => services.GetRequiredService<PurchaseBatcher>());
        builder.Services.AddSingleton<PurchaseIngest>();
        builder.Services.AddSingleton<IdempotencyKeyClaimClient>();
        builder.Services.AddSingleton<IStartupWarmUp, PurchasePathWarmUp>();
        return builder;
    }
}
