using System.Text.Json.Nodes;
using Microsoft.AspNetCore.Authorization;
using Microsoft.Extensions.Options;
using Microsoft.OpenApi;
using Supermarket.Api.Access;
using Supermarket.Api.History;
using Supermarket.Api.Insights;
using Supermarket.Api.Purchases;
using Supermarket.Security;
using Swashbuckle.AspNetCore.SwaggerGen;

namespace Supermarket.Api.OpenApi;

public static class SwaggerSetup
{
    public static IServiceCollection AddSupermarketSwagger(this IServiceCollection services)
    {
        services.AddEndpointsApiExplorer();
        services.AddSwaggerGen(swagger =>
        {
            swagger.SwaggerDoc("v1", new OpenApiInfo
            {
                Title = "Supermarket",
                Version = "1.11",
                Description = "The course's GianTigle API: record purchases and ask what sells where.",
            });
            swagger.SchemaFilter<Examples>();
            swagger.ParameterFilter<DayExamples>();
            swagger.OperationFilter<RequestBodies>();
            // Swagger UI's Authorize button takes a credential from the credentials command (docs/operations.md, "Credentials").
            swagger.AddSecurityDefinition(BearerScheme, new OpenApiSecurityScheme
            {
                Type = SecuritySchemeType.Http,
                Scheme = "bearer",
                BearerFormat = "JWT",
                Description = "A till's or an analyst's credential: `dotnet run --project tools/Supermarket.Credentials -- till 5` or `-- analyst NAME`, from the repository's folder.",
            });
            swagger.OperationFilter<Credentials>();
        });
        return services;
    }

    private const string BearerScheme = "Bearer";

    public static WebApplication UseSupermarketSwagger(this WebApplication app)
    {
        app.UseSwagger();
        app.UseSwaggerUI(ui => ui.DocumentTitle = "Supermarket API");
        return app;
    }

    /// <summary>Documents the JSON body of endpoints that read it themselves (see <see cref="DocumentedRequestBody"/>).</summary>
    private sealed class RequestBodies : IOperationFilter
    {
        public void Apply(OpenApiOperation operation, OperationFilterContext context)
        {
            var body = context.ApiDescription.ActionDescriptor.EndpointMetadata.OfType<DocumentedRequestBody>().FirstOrDefault();
            if (body is null)
            {
                return;
            }

            operation.RequestBody = new OpenApiRequestBody
            {
                Required = true,
                Content = new Dictionary<string, OpenApiMediaType>
                {
                    ["application/json"] = new() { Schema = context.SchemaGenerator.GenerateSchema(body.Type, context.SchemaRepository) },
                },
            };
        }
    }

    private sealed class Credentials : IOperationFilter
    {
        public void Apply(OpenApiOperation operation, OperationFilterContext context)
        {
            var policy = context.ApiDescription.ActionDescriptor.EndpointMetadata.OfType<IAuthorizeData>().Select(data => data.Policy).FirstOrDefault();
            // The course's API carries its policy only with Auth:RequireForCourseApi (AccessSetup.RequireForCourseApi).
            if (policy is not null)
            {
                operation.Security ??= [];
                operation.Security.Add(new OpenApiSecurityRequirement { [new OpenApiSecuritySchemeReference(BearerScheme, context.Document)] = [] });
            }
        }
    }

    /// <summary>Example bodies in the course's exact shapes, so Swagger UI's "Try it out" sends a valid purchase.</summary>
    private sealed class Examples : ISchemaFilter
    {
        private static readonly Dictionary<Type, string> ByType = new()
        {
            [typeof(PurchaseBodyExample)] = """{"items":[{"ItemID":"47410","numberOfItems:":1},{"ItemID":"20998","numberOfItems:":2}]}""",
            [typeof(TopItemsResponse)] = """{"stores":[{"itemID":47410,"numberOfItems":12},{"itemID":20998,"numberOfItems":9}]}""",
            [typeof(TopStoresResponse)] = """{"stores":[{"storeID":55,"numberOfItems":28},{"storeID":3,"numberOfItems":17}]}""",
            [typeof(PurchaseHistoryResponse)] = """{"purchases":[{"purchaseID":"019a9b5e-3f1c-7c2a-9d4e-0a1b2c3d4e5f","storeID":55,"custID":55012,"date":"20210101","receivedAt":"2026-11-22T09:15:02.417301+00:00","items":[{"itemID":47410,"numberOfItems":1},{"itemID":20998,"numberOfItems":2}]}],"continuation":"AQEAAAA3AAt_zQALf80IPbM5WmuSNgGam14_HHwqnU4KGywtPk5f"}""",
            [typeof(PurchaseAccepted)] = """{"message":"Purchase recorded.","purchaseId":"019a9b5e-3f1c-7c2a-9d4e-0a1b2c3d4e5f"}""",
        };

        public void Apply(IOpenApiSchema schema, SchemaFilterContext context)
        {
            if (schema is OpenApiSchema concrete && ByType.TryGetValue(context.Type, out var example))
            {
                concrete.Examples = [JsonNode.Parse(example)!];
            }
        }
    }

    private sealed class DayExamples : IParameterFilter
    {
        public void Apply(IOpenApiParameter parameter, ParameterFilterContext context)
        {
            if (parameter is OpenApiParameter concrete && parameter.In == ParameterLocation.Query && parameter.Name is "from" or "to")
            {
                concrete.Example = JsonValue.Create(parameter.Name == "from" ? "20210101" : "20210107");
            }
        }
    }
}

public sealed record DocumentedRequestBody(Type Type);
