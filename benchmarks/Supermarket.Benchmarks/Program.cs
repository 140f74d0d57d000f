using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Exporters.Json;
using BenchmarkDotNet.Running;

// dotnet run -c Release --project benchmarks/Supermarket.Benchmarks -- --filter '*'            (full run)
// dotnet run -c Release --project benchmarks/Supermarket.Benchmarks -- --filter '*' --job short (a few minutes)
// The default config already exports GitHub markdown; JSON is added for tooling.
var config = DefaultConfig.Instance.AddExporter(JsonExporter.Full);
var summaries = BenchmarkSwitcher.FromAssembly(typeof(Supermarket.Benchmarks.SalesMatrixBenchmarks).Assembly).Run(args, config).ToArray();

// A run that measured nothing (no benchmark matched the filter, or none could be built) fails, rather than exiting 0
// with an empty table; listing the benchmarks or the options measures nothing on purpose.
var measuresNothingOnPurpose = args.Any(arg => arg is "--list" or "--help" or "-h" or "-?" or "--info" or "--version");
return measuresNothingOnPurpose || summaries.Any(summary => summary.Reports.Any(report => report.Success)) ? 0 : 1;
