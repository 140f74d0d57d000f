using System.Data.Common;
using System.Reflection;
using System.Text.Json;
using System.Text.Json.Nodes;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;

namespace Supermarket.ServiceDefaults.About;

/// <summary>/about: the service, its runtime and the settings it runs with, so a load test report can name the system
/// it measured. Passwords and signing keys are left out, also from connection strings.</summary>
public static class AboutEndpoint
{
    private static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web);

    public static IEndpointRouteBuilder MapAbout(this IEndpointRouteBuilder app)
    {
        app.MapGet("/about", Describe).ExcludeFromDescription();
        return app;
    }

    private static JsonHttpResult<About> Describe([AsParameters] AboutServices about) => TypedResults.Json(new About(
        about.Host.ApplicationName,
        Assembly.GetEntryAssembly()?.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion,
        System.Runtime.InteropServices.RuntimeInformation.FrameworkDescription,
        Environment.ProcessorCount,
        Settings(about.Services, about.Sections),
        about.Facts.ToDictionary(fact => fact.Name, fact => fact.Read())), Json);

    public sealed record About(string Service, string? Version, string Runtime, int ProcessorCount, JsonObject Settings, Dictionary<string, object?> Facts);

    public sealed record AboutServices(IServiceProvider Services, IHostEnvironment Host, IEnumerable<SettingsSection> Sections, IEnumerable<AboutFact> Facts);

    private static JsonObject Settings(IServiceProvider services, IEnumerable<SettingsSection> sections)
    {
        var settings = new JsonObject();
        foreach (var section in sections.DistinctBy(section => section.Name).OrderBy(section => section.Name, StringComparer.Ordinal))
        {
            var options = services.GetRequiredService(typeof(IOptions<>).MakeGenericType(section.OptionsType));
            var value = options.GetType().GetProperty(nameof(IOptions<object>.Value))!.GetValue(options);
            var node = JsonSerializer.SerializeToNode(value, section.OptionsType, Json) as JsonObject ?? [];
            settings[section.Name] = WithoutSecrets(node);
        }

        return settings;
    }

    private static JsonObject WithoutSecrets(JsonObject section)
    {
        foreach (var (name, value) in section.ToList())
        {
            if (name.Contains("password", StringComparison.OrdinalIgnoreCase) || name.Contains("secret", StringComparison.OrdinalIgnoreCase)
                || name.Contains("signingKey", StringComparison.OrdinalIgnoreCase))
            {
                section.Remove(name);
            }
            else if (name.Contains("connectionString", StringComparison.OrdinalIgnoreCase) && value?.GetValueKind() == JsonValueKind.String)
            {
                var connection = new DbConnectionStringBuilder { ConnectionString = value.GetValue<string>() };
                foreach (var key in new[] { "Password", "Pwd" })
                {
                    connection.Remove(key);
                }

                section[name] = connection.ConnectionString;
            }
        }

        return section;
    }
}

/// <summary>An options class bound from a configuration section, as registered by <c>AddValidatedOptions</c>.</summary>
public sealed record SettingsSection(string Name, Type OptionsType);

/// <summary>What a service says of itself on /about beside its settings, read at each GET.</summary>
public sealed record AboutFact(string Name, Func<object?> Read);
