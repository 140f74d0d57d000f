using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;
using Supermarket.ServiceDefaults.Configuration;

namespace Supermarket.ServiceDefaults.Management;

/// <summary>Keeps the management endpoints off the public port: by the port the connection arrived at, which a client
/// cannot choose, not by the Host header, which it can.</summary>
public static class ManagementPort
{
    public sealed class Endpoint
    {
        public static readonly Endpoint Marker = new();
    }

    public static IHostApplicationBuilder AddManagementPort(this IHostApplicationBuilder builder)
    {
        builder.Services.AddValidatedOptions<ManagementOptions>(builder.Configuration, ManagementOptions.Section);
        if (builder.Configuration.GetSection(ManagementOptions.Section)[nameof(ManagementOptions.Url)] is { Length: > 0 } management)
        {
            // Kestrel listens on every address of "urls" (the setting, or --urls): the management one joins them.
            builder.Configuration["urls"] = builder.Configuration["urls"] is { Length: > 0 } urls ? $"{urls};{management}" : management;
        }

        return builder;
    }

    public static WebApplication UseManagementPort(this WebApplication app)
    {
        if (app.Services.GetRequiredService<IOptions<ManagementOptions>>().Value.Port is { } port)
        {
            app.Use((context, next) =>
            {
                if (context.GetEndpoint()?.Metadata.GetMetadata<Endpoint>() is not null && context.Connection.LocalPort != port)
                {
                    context.Response.StatusCode = StatusCodes.Status404NotFound;
                    return Task.CompletedTask;
                }

                return next(context);
            });
        }

        return app;
    }
}
