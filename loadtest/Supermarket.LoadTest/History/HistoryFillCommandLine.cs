using System.CommandLine;

namespace Supermarket.LoadTest.History;

/// <summary>The <c>fill-history</c> command. Defaults are read from <see cref="HistoryFillOptions"/> and the load
/// test's <see cref="LoadOptions"/>, so each is written once, there.</summary>
public sealed class HistoryFillCommandLine
{
    private static readonly HistoryFillOptions Defaults = new();

    private readonly Option<int> _days = LoadCommandLine.AtLeast("--days", "days filled, the ones before --date", Defaults.Days, 1);
    private readonly Option<int> _stores = LoadCommandLine.AtLeast("--stores", "stores, ids 1..N", Defaults.Chain.Stores, 1);
    private readonly Option<int> _purchasesPerHour = LoadCommandLine.AtLeast("--purchases-per-hour", "purchases a store makes in an hour", Defaults.Chain.PurchasesPerHour, 1);
    private readonly Option<int> _hours = LoadCommandLine.AtLeast("--hours", "hours a day", Defaults.Chain.Hours, 1);
    private readonly Option<int> _perTransaction = LoadCommandLine.AtLeast("--purchases-per-transaction", "purchases stored with one ledger entry", Defaults.PurchasesPerTransaction, 1);
    private readonly Option<int> _maxStoreId = LoadCommandLine.AtLeast("--max-store-id", "the system's Catalog:MaxStoreId: more --stores are refused", Defaults.MaxStoreId, 1);
    private readonly Option<int> _daysAtOnce = LoadCommandLine.AtLeast("--days-at-once", "days filled at once, a connection each (default: this machine's cores)", Defaults.DaysAtOnce, 1);
    private readonly Option<string> _date = new("--date")
    {
        Description = "the day after the history, yyyyMMdd (the load test's --date)",
        DefaultValueFactory = _ => Defaults.Chain.Date,
        Validators = { LoadCommandLine.RequireDate },
    };

    public HistoryFillCommandLine()
    {
        Command = new Command("fill-history", "fills MySQL with the chain's past, the load test's day on each of --days days before --date, "
            + "as the writer stores purchases (rows, ids, sales ledger); resumable")
        {
            _days, _stores, _purchasesPerHour, _hours, _perTransaction, _daysAtOnce, _date, _maxStoreId,
        };
        Command.SetAction((parsed, cancel) => new HistoryFill(Read(parsed), Console.Out).RunAsync(cancel));
    }

    public Command Command { get; }

    public HistoryFillOptions Read(ParseResult parsed) => new()
    {
        Days = parsed.GetValue(_days),
        PurchasesPerTransaction = parsed.GetValue(_perTransaction),
        DaysAtOnce = parsed.GetValue(_daysAtOnce),
        MaxStoreId = parsed.GetValue(_maxStoreId),
        Chain = Defaults.Chain with
        {
            Stores = parsed.GetValue(_stores),
            PurchasesPerHour = parsed.GetValue(_purchasesPerHour),
            Hours = parsed.GetValue(_hours),
            Date = parsed.GetValue(_date)!,
        },
    };
}
