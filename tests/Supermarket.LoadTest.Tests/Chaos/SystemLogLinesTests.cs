using Supermarket.LoadTest.Chaos;

namespace Supermarket.LoadTest.Tests.Chaos;

public sealed class SystemLogLinesTests
{
    [Fact]
    public void Aspire_s_lines_lose_their_colours_and_a_dotnet_warning_keeps_its_message()
    {
        const string logs =
            "\u001b[2m2026-11-28T06:50:22.107Z \u001b[0m\u001b[38;5;37m[api-1]\u001b[0m warn: Supermarket.Api[0]\n"
            + "2026-11-28T06:50:22.107Z [api-1]       The course's API is open to anyone who can reach this port\n"
            + "2026-11-28T06:50:22.108Z [api-1]       Now listening on: http://127.0.0.1:9080\n"
            + "2026-11-28T06:50:22.200Z [api-1] info: Microsoft.Hosting.Lifetime[0]\n"
            + "2026-11-28T06:50:22.200Z [api-1]       An error page is served at /error\n"
            + "2026-11-28T06:50:33.739Z [mariadb] 2026-11-28  6:50:33 6 [Warning] Aborted connection 6\n";

        Assert.Equal(
        [
            "2026-11-28T06:50:22.107Z [api-1] warn: Supermarket.Api[0]",
            "2026-11-28T06:50:22.107Z [api-1]       The course's API is open to anyone who can reach this port",
            "2026-11-28T06:50:22.108Z [api-1]       Now listening on: http://127.0.0.1:9080",
            "2026-11-28T06:50:33.739Z [mariadb] 2026-11-28  6:50:33 6 [Warning] Aborted connection 6",
        ], SystemLogLines.WarningsAndErrors(logs, count: 10));
    }

    [Fact]
    public void Compose_s_containers_printed_one_after_another_are_put_in_time_order_and_the_last_warnings_kept()
    {
        const string logs =
            "supermarket_api_1          | 2026-11-28T06:00:02.000000000Z fail: Supermarket.Api[0]\n"
            + "supermarket_api_1          | 2026-11-28T06:00:02.000000000Z       A batch could not be published\n"
            + "supermarket_api_1          | 2026-11-28T06:00:09.000000000Z info: Supermarket.Api[0]\n"
            + "supermarket_rabbitmq-1_1   | 2026-11-28T06:00:01.000000000Z 2026-11-28 06:00:01 [error] <0.1.0> node down\n"
            + "supermarket_rabbitmq-1_1   | 2026-11-28T06:00:05.000000000Z 2026-11-28 06:00:05 [warning] <0.2.0> closing\n";

        Assert.Equal(
        [
            "supermarket_rabbitmq-1_1   | 2026-11-28T06:00:01.000000000Z 2026-11-28 06:00:01 [error] <0.1.0> node down",
            "supermarket_api_1          | 2026-11-28T06:00:02.000000000Z fail: Supermarket.Api[0]",
            "supermarket_api_1          | 2026-11-28T06:00:02.000000000Z       A batch could not be published",
            "supermarket_rabbitmq-1_1   | 2026-11-28T06:00:05.000000000Z 2026-11-28 06:00:05 [warning] <0.2.0> closing",
        ], SystemLogLines.WarningsAndErrors(logs, count: 10));
        Assert.Equal(["supermarket_rabbitmq-1_1   | 2026-11-28T06:00:05.000000000Z 2026-11-28 06:00:05 [warning] <0.2.0> closing"],
            SystemLogLines.WarningsAndErrors(logs, count: 1));
        Assert.StartsWith("supermarket_rabbitmq-1_1   | 2026-11-28T06:00:01", SystemLogLines.InTimeOrder(logs)[0], StringComparison.Ordinal);
    }
}
