using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using Supermarket.ServiceDefaults.About;

namespace Supermarket.ServiceDefaults.Configuration;

public static class ValidatedOptions
{
    /// <summary>Validated at start, and listed on /about so a report can say what the system ran with.</summary>
    public static OptionsBuilder<T> AddValidatedOptions<T>(this IServiceCollection services, IConfiguration configuration, string section)
        where T : class
    {
        services.AddSingleton(new SettingsSection(section, typeof(T)));
        return services.AddOptions<T>()
            .Bind(configuration.GetSection(section))
            .ValidateDataAnnotations()
            .ValidateOnStart();
    }

    /// <summary>For a section that decides what is registered: validated now, so an invalid value stops the service
    /// with the same message as at start, not with whatever a library throws.</summary>
    public static T GetValidated<T>(this IConfiguration configuration, string section)
        where T : class, new()
    {
        var value = configuration.GetSection(section).Get<T>() ?? new T();
        var result = new DataAnnotationValidateOptions<T>(Options.DefaultName).Validate(Options.DefaultName, value);
        return result.Failed ? throw new OptionsValidationException(Options.DefaultName, typeof(T), result.Failures) : value;
    }
}
