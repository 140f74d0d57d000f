using Microsoft.Extensions.Options;
using Supermarket.Contracts.Catalog;

namespace Supermarket.Api.Purchases;

/// <summary>What POST /purchase is answered with, bound as one parameter (<c>[AsParameters]</c>).</summary>
public sealed record PurchaseServices(
    PurchaseIngest Ingest, IOptions<CatalogOptions> Catalog, IOptions<IngestOptions> Options);
