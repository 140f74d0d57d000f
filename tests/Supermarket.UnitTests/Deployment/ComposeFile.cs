using System.Text.RegularExpressions;

namespace Supermarket.UnitTests.Deployment;

/// <summary>docker/compose.yaml, read as lines (no YAML library is needed for what the tests check).</summary>
public static partial class ComposeFile
{
    public static readonly string[] Lines = File.ReadAllLines(Path.Combine(RepositoryRoot(), "docker", "compose.yaml"));

    /// <summary>Every image compose builds from docker/Dockerfile: the program it runs and the image it runs on.</summary>
    public static IEnumerable<(string Assembly, string Image)> BuiltImages()
    {
        string? assembly = null;
        foreach (var line in Lines)
        {
            var arg = BuildArg().Match(line);
            if (!arg.Success)
            {
                continue;
            }

            if (arg.Groups[1].Value == "ASSEMBLY")
            {
                assembly = arg.Groups[2].Value;
            }
            else if (arg.Groups[1].Value == "RUNTIME_IMAGE")
            {
                yield return (assembly ?? throw new InvalidOperationException("RUNTIME_IMAGE before ASSEMBLY"), arg.Groups[2].Value);
                assembly = null;
            }
        }
    }

    public static string RepositoryRoot()
    {
        var directory = new DirectoryInfo(AppContext.BaseDirectory);
        while (directory is not null && !File.Exists(Path.Combine(directory.FullName, "Supermarket.sln")))
        {
            directory = directory.Parent;
        }

        return directory?.FullName ?? throw new InvalidOperationException("Supermarket.sln not found above the test folder.");
    }

    [GeneratedRegex(@"^\s+(ASSEMBLY|RUNTIME_IMAGE):\s*(\S+)\s*$")]
    private static partial Regex BuildArg();
}
