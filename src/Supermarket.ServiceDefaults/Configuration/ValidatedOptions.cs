using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace Supermarket.ServiceDefaults.Configuration;

public static class ValidatedOptions
{
    /// <summary>Binds <typeparamref name="T"/> from its configuration section (so every setting can be overridden
    /// with an environment variable such as <c>Broker__Host</c>) and refuses to start with an invalid value.</summary>
    public static OptionsBuilder<T> AddValidatedOptions<T>(this IServiceCollection services, IConfiguration configuration, string section)
        where T : class =>
        services.AddOptions<T>()
            .Bind(configuration.GetSection(section))
            .ValidateDataAnnotations()
            .ValidateOnStart();
}
