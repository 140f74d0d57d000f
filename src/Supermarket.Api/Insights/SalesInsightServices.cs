using Microsoft.Extensions.Options;
using Supermarket.Api.Workers;
using Supermarket.Contracts.Catalog;

namespace Supermarket.Api.Insights;

/// <summary>What the sales GETs are answered with, bound as one parameter (<c>[AsParameters]</c>).</summary>
public sealed record SalesInsightServices(
    SalesShardClients Shards, WorkerQuestions Questions, IOptions<CatalogOptions> Catalog, IOptions<InsightOptions> Options);
