using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Exporters.Json;
using BenchmarkDotNet.Running;

// dotnet run -c Release --project benchmarks/Supermarket.Benchmarks -- --filter '*'            (full run)
// dotnet run -c Release --project benchmarks/Supermarket.Benchmarks -- --filter '*' --job short (about a minute)
// The default config already exports GitHub markdown; JSON is added for tooling.
var config = DefaultConfig.Instance.AddExporter(JsonExporter.Full);
var summaries = BenchmarkSwitcher.FromAssembly(typeof(Supermarket.Benchmarks.SalesMatrixBenchmarks).Assembly).Run(args, config).ToArray();

// A run that measured nothing (no benchmark matched the filter, or none could be built) or failed to measure one fails,
// rather than exiting 0 with an empty or partial table; listing the benchmarks or the options measures nothing on
// purpose.
var measuresNothingOnPurpose = args.Any(arg => arg is "--list" or "--help" or "-h" or "-?" or "--info" or "--version");
var reports = summaries.SelectMany(summary => summary.Reports).ToList();
var measuredAll = reports.Count > 0 && reports.All(report => report.Success) && !summaries.Any(summary => summary.HasCriticalValidationErrors);
return measuresNothingOnPurpose || measuredAll ? 0 : 1;
