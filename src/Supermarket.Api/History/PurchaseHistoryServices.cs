using MassTransit;
using Microsoft.Extensions.Options;
using Supermarket.Api.Workers;
using Supermarket.Contracts.Catalog;
using Supermarket.Contracts.History;

namespace Supermarket.Api.History;

public sealed record PurchaseHistoryServices(
    IRequestClient<PurchasesAtStore> AtStore,
    IRequestClient<PurchasesOfCustomer> OfCustomer,
    WorkerQuestions Questions,
    IOptions<CatalogOptions> Catalog,
    IOptions<HistoryQuestionOptions> Options,
    ILogger<PurchaseHistoryServices> Logger);
