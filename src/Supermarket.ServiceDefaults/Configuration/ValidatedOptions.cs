using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using Supermarket.ServiceDefaults.About;

namespace Supermarket.ServiceDefaults.Configuration;

public static class ValidatedOptions
{
    /// <summary>Binds <typeparamref name="T"/> from its configuration section (so every setting can be overridden
    /// with an environment variable such as <c>Broker__Host</c>) and refuses to start with an invalid value. The
    /// section is listed on <c>/about</c>, so a report can say what the system ran with.</summary>
    public static OptionsBuilder<T> AddValidatedOptions<T>(this IServiceCollection services, IConfiguration configuration, string section)
        where T : class
    {
        services.AddSingleton(new SettingsSection(section, typeof(T)));
        return services.AddOptions<T>()
            .Bind(configuration.GetSection(section))
            .ValidateDataAnnotations()
            .ValidateOnStart();
    }

    /// <summary>The same settings read now, while services are registered, for a section whose values decide what is
    /// registered (whether to trace, where to export): validated here as <see cref="AddValidatedOptions{T}"/> validates
    /// at start, so an invalid value stops the service with the same message, not with whatever a library throws.</summary>
    public static T GetValidated<T>(this IConfiguration configuration, string section)
        where T : class, new()
    {
        var value = configuration.GetSection(section).Get<T>() ?? new T();
        var result = new DataAnnotationValidateOptions<T>(Options.DefaultName).Validate(Options.DefaultName, value);
        return result.Failed ? throw new OptionsValidationException(Options.DefaultName, typeof(T), result.Failures) : value;
    }
}
