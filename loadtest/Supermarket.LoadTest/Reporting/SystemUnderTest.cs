using System.Globalization;
using System.Text.Json;
using System.Text.Json.Serialization;
using Supermarket.Database.LoadTest;
using Supermarket.LoadTest.Live;
using Supermarket.Messaging;

namespace Supermarket.LoadTest.Reporting;

/// <summary>
/// What the run measured, as the report names it: each service's /about (its settings, defaults and overrides
/// alike), the broker (version, nodes, the writer queue's type) and the database (version, buffer pool, how much
/// history it held). Read once, before the first POST; what does not answer is said so, not left out.
/// </summary>
public sealed record SystemUnderTest(IReadOnlyList<SettingsGroup> Groups)
{
    /// <summary>The purchases the database held before the run; null when it was not read.</summary>
    [JsonIgnore]
    public long? PurchasesStored { get; private init; }

    public static async Task<SystemUnderTest> ReadAsync(LoadOptions options)
    {
        List<SettingsGroup> groups = [];
        foreach (var worker in options.Workers)
        {
            using var http = new HttpClient { BaseAddress = worker, Timeout = TimeSpan.FromSeconds(2) };
            groups.Add(await AboutAsync(worker.ToString(), http, "about"));
        }

        groups.Add(new SettingsGroup("Supermarket.LoadTest", [new Setting("version", LoadTestBuild.Version ?? "?")]));
        groups.Add(await BrokerAsync(options));
        if (!options.Verify)
        {
            return new SystemUnderTest(groups);
        }

        var (database, stored) = await DatabaseAsync(options);
        groups.Add(database);
        return new SystemUnderTest(groups) { PurchasesStored = stored };
    }

    public void Write(string path) => File.WriteAllText(path, JsonSerializer.Serialize(this, RunResult.Json));

    /// <summary>A service's /about, flattened to "Section.Setting = value"; named by the service it says it is.</summary>
    private static async Task<SettingsGroup> AboutAsync(string where, HttpClient http, string path)
    {
        try
        {
            using var about = JsonDocument.Parse(await http.GetStringAsync(path));
            var settings = new List<Setting>();
            Flatten(about.RootElement, "", settings);
            var service = about.RootElement.TryGetProperty("service", out var name) ? name.GetString() : null;
            return new SettingsGroup(service ?? where, settings);
        }
        catch (Exception exception) when (exception is HttpRequestException or TaskCanceledException or JsonException)
        {
            return new SettingsGroup(where, [new Setting("about", $"not reachable ({exception.GetType().Name})")]);
        }
    }

    private static void Flatten(JsonElement element, string prefix, List<Setting> into)
    {
        if (element.ValueKind == JsonValueKind.Object)
        {
            foreach (var property in element.EnumerateObject())
            {
                Flatten(property.Value, prefix.Length == 0 || prefix == "settings" ? property.Name : $"{prefix}.{property.Name}", into);
            }
        }
        else
        {
            into.Add(new Setting(prefix, element.ToString()));
        }
    }

    private static async Task<SettingsGroup> BrokerAsync(LoadOptions options)
    {
        using var http = BrokerManagement.CreateClient(options.BrokerManagement);
        try
        {
            using var overview = JsonDocument.Parse(await http.GetStringAsync("overview"));
            using var nodes = JsonDocument.Parse(await http.GetStringAsync("nodes"));
            using var queue = JsonDocument.Parse(await http.GetStringAsync(
                $"queues/{Uri.EscapeDataString(options.BrokerVirtualHost)}/{Topology.PurchasesWriterQueue}"));
            return new SettingsGroup("RabbitMQ",
            [
                new("version", overview.RootElement.GetProperty("rabbitmq_version").GetString() ?? "?"),
                new("nodes", nodes.RootElement.GetArrayLength().ToString(CultureInfo.InvariantCulture)),
                new($"{Topology.PurchasesWriterQueue} type", queue.RootElement.TryGetProperty("type", out var type) ? type.GetString() ?? "?" : "?"),
                new($"{Topology.PurchasesWriterQueue} consumers", queue.RootElement.TryGetProperty("consumers", out var consumers) ? consumers.ToString() : "?"),
            ]);
        }
        catch (Exception exception) when (exception is HttpRequestException or TaskCanceledException or JsonException or KeyNotFoundException)
        {
            return new SettingsGroup("RabbitMQ", [new Setting("management API", $"not reachable ({exception.GetType().Name})")]);
        }
    }

    private static async Task<(SettingsGroup Group, long? Stored)> DatabaseAsync(LoadOptions options)
    {
        try
        {
            var stored = new StoredSales(options.Database);
            var facts = await stored.ServerAsync();
            var history = await stored.PurchasesStoredAfterAsync(seq: 0);
            return (new SettingsGroup("MariaDB",
            [
                new("version", facts.Version),
                new("innodb_buffer_pool_size", string.Create(CultureInfo.InvariantCulture, $"{facts.BufferPoolBytes / (1024 * 1024):N0} MiB")),
                new("innodb_flush_log_at_trx_commit", facts.FlushLogAtCommit.ToString(CultureInfo.InvariantCulture)),
                new("purchases stored before the run", history.ToString("N0", CultureInfo.InvariantCulture)),
            ]), history);
        }
        catch (Exception exception) when (DatabaseOutage.Explains(exception))
        {
            return (new SettingsGroup("MariaDB", [new Setting("connection", $"failed ({exception.Message})")]), null);
        }
    }
}

public sealed record SettingsGroup(string Name, IReadOnlyList<Setting> Settings);

public sealed record Setting(string Name, string Value);
