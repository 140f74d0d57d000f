using System.Diagnostics;

namespace Supermarket.Repository.Tests;

/// <summary>
/// Every shell script of the repository (run.sh, test.sh, .ci/run, scripts/, loadtest/, docker/, infra/hooks/) passes
/// shellcheck, with the directives written in the scripts themselves. Debian's shellcheck; ./test.sh installs it
/// (scripts/services.sh install shellcheck) before the fast tests.
/// </summary>
public sealed class ShellScriptsTests
{
    private static readonly string Root = RepositoryRoot.Path;

    [Fact]
    public async Task Every_shell_script_is_shellcheck_clean()
    {
        var scripts = Directory.EnumerateFiles(Root, "*.sh", SearchOption.AllDirectories)
            .Where(file => !Path.GetRelativePath(Root, file).Split(Path.DirectorySeparatorChar)
                .Any(part => part is "bin" or "obj" or ".local" or ".git" or "node_modules"))
            .Append(Path.Combine(Root, ".ci", "run"))
            .Select(file => Path.GetRelativePath(Root, file))
            .Order(StringComparer.Ordinal)
            .ToList();
        Assert.Contains("run.sh", scripts);

        var start = new ProcessStartInfo("shellcheck", ["--external-sources", "--format=gcc", .. scripts])
        {
            WorkingDirectory = Root,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        Process shellcheck;
        try
        {
            shellcheck = Process.Start(start)!;
        }
        catch (System.ComponentModel.Win32Exception)
        {
            Assert.Fail("shellcheck is not installed: scripts/services.sh install shellcheck");
            return;
        }

        using (shellcheck)
        {
            var findings = shellcheck.StandardOutput.ReadToEndAsync();
            var errors = shellcheck.StandardError.ReadToEndAsync();
            using var bound = new CancellationTokenSource(TimeSpan.FromMinutes(2));
            await shellcheck.WaitForExitAsync(bound.Token);
            Assert.True(shellcheck.ExitCode == 0, $"shellcheck exited {shellcheck.ExitCode}:\n{await findings}{await errors}");
        }
    }
}
