// The broker test stops RabbitMQ and the aggregator tests restart a worker: tests must not overlap.
[assembly: CollectionBehavior(DisableTestParallelization = true)]
