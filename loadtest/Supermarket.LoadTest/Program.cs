using Supermarket.LoadTest;

// The chain's day against the API (LoadRun), `chaos` (days with faults, ChaosRun), `compare` of report folders,
// `fill-history`, one `fault` on the AppHost's resources, `database empty` or `broker delete-queues`, `system
// pids|names|url` (what the AppHost runs, for a script), `idle` (the system's CPU with nothing asked),
// `machine-cpu` (the machine's CPU so far): see --help.
return await LoadCommandLine.RunAsync(args);
