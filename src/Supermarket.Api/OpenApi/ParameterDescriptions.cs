namespace Supermarket.Api.OpenApi;

/// <summary>What Swagger UI says of the parameters several endpoints share (each endpoint's own are beside it).</summary>
public static class ParameterDescriptions
{
    public const string Store = "The store's id, a whole number from 1 to the catalog's last store (Catalog:MaxStoreId).";

    public const string Item = "The item's id, a whole number from 1 to the catalog's last item (Catalog:MaxItemId).";

    public const string Customer = "The customer's id, a positive whole number.";

    public const string Continuation = "The previous page's continuation, unchanged; without it, the first page.";
}
