using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Exporters.Json;
using BenchmarkDotNet.Running;

// dotnet run -c Release --project benchmarks/Supermarket.Benchmarks -- --filter '*'            (full run)
// dotnet run -c Release --project benchmarks/Supermarket.Benchmarks -- --filter '*' --job short (a few minutes)
// The default config already exports GitHub markdown; JSON is added for tooling.
var config = DefaultConfig.Instance.AddExporter(JsonExporter.Full);
BenchmarkSwitcher.FromAssembly(typeof(Supermarket.Benchmarks.SalesMatrixBenchmarks).Assembly).Run(args, config);
