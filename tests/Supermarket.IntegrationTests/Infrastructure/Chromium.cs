using Microsoft.Playwright;

namespace Supermarket.IntegrationTests.Infrastructure;

/// <summary>Debian's chromium (scripts/services.sh installs it), driven by Playwright, as the browser tests use it.</summary>
public static class Chromium
{
    private const string Executable = "/usr/bin/chromium";

    public static Task<IBrowser> LaunchAsync(IPlaywright playwright) =>
        playwright.Chromium.LaunchAsync(new()
        {
            ExecutablePath = Executable,
            Headless = true,
            Args = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        });
}
