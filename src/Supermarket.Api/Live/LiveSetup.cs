using Supermarket.ServiceDefaults.Configuration;

namespace Supermarket.Api.Live;

public static class LiveSetup
{
    public static IHostApplicationBuilder AddLiveSales(this IHostApplicationBuilder builder)
    {
        builder.Services.AddValidatedOptions<LiveOptions>(builder.Configuration, LiveOptions.Section);
        builder.Services.AddSingleton<LiveSales>();
        return builder;
    }
}
