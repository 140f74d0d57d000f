// The broker test stops RabbitMQ and the aggregator tests restart a worker: tests must not overlap.
[assembly: CollectionBehavior(DisableTestParallelization = true)]

// The system under test runs Debian's packages through its AppHost: Linux only.
[assembly: System.Runtime.Versioning.SupportedOSPlatform("linux")]
