using Supermarket.LoadTest.Reporting;

namespace Supermarket.LoadTest.Tests;

/// <summary>The CPU the system's processes use, from a /proc written by the test.</summary>
public sealed class ProcessCpuTests : IDisposable
{
    private readonly string _proc = Directory.CreateTempSubdirectory("proc-").FullName;

    [Theory]
    [InlineData("mariadbd --defaults-file=/work/.local/mariadb/my.cnf --user=mysql ", "mariadb")]
    [InlineData("/work/src/Supermarket.PurchasesWriter/bin/Release/net10.0/Supermarket.PurchasesWriter --urls http://127.0.0.1:9111 ", "writer")]
    [InlineData("/work/src/Supermarket.Api/bin/Release/net10.0/Supermarket.Api --urls http://127.0.0.1:8080 ", "api")]
    [InlineData("dotnet run --project /work/src/Supermarket.Api/Supermarket.Api.csproj --no-build ", "apphost and run hosts")]
    [InlineData("/usr/lib/erlang/erts-13.1.5/bin/beam.smp -W w ", "rabbitmq")]
    [InlineData("nginx: worker process ", "nginx")]
    [InlineData("", "kernel threads")]
    [InlineData("/usr/bin/bash ./run.sh ", null)]
    public void A_process_is_named_by_what_it_runs(string commandLine, string? name) =>
        Assert.Equal(name, ProcessCpu.NameOf(commandLine));

    [Fact]
    public void A_command_name_with_spaces_and_parentheses_does_not_shift_the_fields() =>
        Assert.Equal(1234 + 56, ProcessCpu.ProcessTicks("42 (odd) name)) S 1 42 42 0 -1 4194560 100 0 0 0 1234 56 0 0 20 0 8 0 300 0 0"));

    [Fact]
    public void Each_part_counts_what_its_processes_used_between_two_snapshots()
    {
        Process(10, "mariadbd --user=mysql ", ticks: 500);
        Process(11, "/x/net10.0/Supermarket.PurchasesWriter --urls a ", ticks: 100);
        Process(12, "/x/net10.0/Supermarket.PurchasesWriter --urls b ", ticks: 100);
        Machine(busyTicks: 10_000);
        var before = ProcessCpu.Snapshot(_proc, NoCgroups);

        Process(10, "mariadbd --user=mysql ", ticks: 750);
        Process(11, "/x/net10.0/Supermarket.PurchasesWriter --urls a ", ticks: 150);
        Process(12, "/x/net10.0/Supermarket.PurchasesWriter --urls b ", ticks: 200);
        Process(13, "/x/net10.0/Supermarket.PurchasesWriter --urls c ", ticks: 900); // started between the two: not counted
        Machine(busyTicks: 12_000);
        var used = ProcessCpu.Snapshot(_proc, NoCgroups).Since(before);

        Assert.Equal(2.5, used["mariadb"], 9);
        Assert.Equal(1.5, used["writer"], 9);
        Assert.Equal(20, used[ProcessCpu.Machine], 9);
        Assert.True(used[ProcessCpu.LoadGenerator] >= 0);
    }

    [Fact]
    public void Idle_shares_are_percentages_of_one_core_and_the_system_leaves_out_the_load_generator_and_the_kernel()
    {
        var used = new Dictionary<string, double>
        {
            ["api"] = 1.2, ["rabbitmq"] = 0.6, ["kernel threads"] = 3, [ProcessCpu.LoadGenerator] = 9, [ProcessCpu.Machine] = 15,
        };

        var shares = IdleCommandLine.SharesOfACore(used, TimeSpan.FromSeconds(60));

        Assert.Equal(2.0, shares["api"]);
        Assert.Equal(1.0, shares["rabbitmq"]);
        Assert.Equal(25.0, shares[ProcessCpu.Machine]);
        Assert.Equal(3.0, shares[IdleCommandLine.System]);
        Assert.Empty(IdleCommandLine.SharesOfACore(new Dictionary<string, double>(), TimeSpan.FromSeconds(60)));
    }

    /// <summary>On this box's VM /proc/stat's ticks missed a quarter to half of a light load of short wakes
    /// (docs/performance.md, "The tool"): the machine's figure must hold at least what every process used, here
    /// with questions and answers over loopback, a pause after each.</summary>
    [Fact]
    public async Task The_machine_counts_a_light_load_of_short_wakes_whole()
    {
        using var listener = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0);
        listener.Start();
        using var client = new System.Net.Sockets.TcpClient();
        await client.ConnectAsync(System.Net.IPAddress.Loopback, ((System.Net.IPEndPoint)listener.LocalEndpoint).Port);
        using var served = await listener.AcceptTcpClientAsync();
        var until = DateTime.UtcNow + TimeSpan.FromSeconds(3);
        var echo = Task.Run(async () =>
        {
            var buffer = new byte[100];
            var stream = served.GetStream();
            while (await stream.ReadAsync(buffer) is var read and > 0)
            {
                await stream.WriteAsync(buffer.AsMemory(0, read));
            }
        });

        var before = ProcessCpu.Snapshot();
        var everyBefore = EveryProcessTicks();
        var asked = client.GetStream();
        var message = new byte[100];
        while (DateTime.UtcNow < until)
        {
            await asked.WriteAsync(message);
            await asked.ReadExactlyAsync(message);
            await Task.Delay(1);
        }

        var machine = ProcessCpu.Snapshot().Since(before)[ProcessCpu.Machine];
        var every = EveryProcessTicks();
        var processes = every.Where(p => everyBefore.ContainsKey(p.Key)).Sum(p => p.Value - everyBefore[p.Key]) / ProcessCpu.TicksPerSecond;
        client.Close();
        await echo.WaitAsync(TimeSpan.FromSeconds(10));

        Assert.True(machine >= 0.95 * processes, $"the machine counted {machine:F2} CPU s, its processes {processes:F2}");
    }

    /// <summary>utime + stime of every process, which Linux keeps to the scheduler's exact runtime.</summary>
    private static Dictionary<int, long> EveryProcessTicks() => ProcessCpu.Processes().ToDictionary(process => process.Pid, process => process.Ticks);

    [Fact]
    public void Without_a_proc_nothing_is_measured() =>
        Assert.Empty(ProcessCpu.Snapshot(Path.Combine(_proc, "absent")).Since(ProcessCpu.Snapshot(Path.Combine(_proc, "absent"))));

    [Fact]
    public void The_machine_is_the_root_cgroups_count_where_there_is_one()
    {
        Machine(busyTicks: 12_000);
        var cgroups = Directory.CreateDirectory(Path.Combine(_proc, "cgroups")).FullName;
        Assert.Equal(TimeSpan.FromSeconds(120), ProcessCpu.MachineTime(_proc, cgroups));

        Directory.CreateDirectory(Path.Combine(cgroups, "cpuacct"));
        File.WriteAllText(Path.Combine(cgroups, "cpuacct", "cpuacct.usage"), "15366791238700\n");
        Assert.Equal(TimeSpan.FromTicks(153_667_912_387), ProcessCpu.MachineTime(_proc, cgroups));

        File.WriteAllText(Path.Combine(cgroups, "cpu.stat"), "usage_usec 42000000\nuser_usec 40000000\nsystem_usec 2000000\n");
        Assert.Equal(TimeSpan.FromSeconds(42), ProcessCpu.MachineTime(_proc, cgroups));
    }

    private string NoCgroups => Path.Combine(_proc, "no-cgroups");

    private void Process(int pid, string commandLine, long ticks)
    {
        var folder = Directory.CreateDirectory(Path.Combine(_proc, pid.ToString(System.Globalization.CultureInfo.InvariantCulture))).FullName;
        File.WriteAllText(Path.Combine(folder, "cmdline"), commandLine.Replace(' ', '\0'));
        File.WriteAllText(Path.Combine(folder, "stat"), $"{pid} (proc) S 1 1 1 0 -1 0 0 0 0 0 {ticks - 7} 7 0 0 20 0 1 0 1 0 0");
    }

    // user nice system idle iowait irq softirq: busy = user + nice + system + irq + softirq
    private void Machine(long busyTicks) =>
        File.WriteAllText(Path.Combine(_proc, "stat"), $"cpu  {busyTicks - 30} 10 10 99999 555 5 5 0 0 0\ncpu0 1 2 3 4 5 6 7 0 0 0\n");

    public void Dispose() => Directory.Delete(_proc, recursive: true);
}
