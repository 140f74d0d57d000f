using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Supermarket.Hosting.Configuration;

namespace Supermarket.Hosting.Database;

public static class DatabaseRegistration
{
    /// <summary>Database options plus the schema migration, registered first so it runs before the bus starts.</summary>
    public static IServiceCollection AddSupermarketDatabase(this IServiceCollection services, IConfiguration configuration)
    {
        services.AddValidatedOptions<DatabaseOptions>(configuration, DatabaseOptions.Section);
        services.AddHostedService<SchemaMigration>();
        return services;
    }
}
