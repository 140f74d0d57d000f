using Supermarket.LoadTest;

// The chain's day against the API (LoadRun), `chaos` (days with faults, ChaosRun) or `compare` of report folders: see --help.
return await new LoadCommandLine().Command.Parse(args).InvokeAsync();
