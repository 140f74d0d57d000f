namespace Supermarket.Api.OpenApi;

/// <summary>Endpoint metadata: the endpoint reads a JSON body of this shape itself; Swagger documents it.</summary>
public sealed record DocumentedRequestBody(Type Type);
