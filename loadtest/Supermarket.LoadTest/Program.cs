using Supermarket.LoadTest;

// The chain's day against the API (LoadRun), `chaos` (days with faults, ChaosRun), `compare` of report folders,
// `fill-history` or one `fault` on the AppHost's resources: see --help.
return await new LoadCommandLine().Command.Parse(args).InvokeAsync();
