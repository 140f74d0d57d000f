using MassTransit;
using Microsoft.Extensions.Options;
using Supermarket.Api.Workers;
using Supermarket.Contracts.Catalog;
using Supermarket.Contracts.History;

namespace Supermarket.Api.History;

/// <summary>What the purchase history GETs are answered with, bound as one parameter (<c>[AsParameters]</c>).</summary>
public sealed record PurchaseHistoryServices(
    IRequestClient<PurchasesAtStore> AtStore,
    IRequestClient<PurchasesOfCustomer> OfCustomer,
    WorkerQuestions Questions,
    IOptions<CatalogOptions> Catalog,
    IOptions<HistoryQuestionOptions> Options,
    ILogger<PurchaseHistoryServices> Logger);
