using System.Text.RegularExpressions;

namespace Supermarket.Deployment.Tests;

/// <summary>
/// The image is built from what the Dockerfile copies, not from the checkout: a build file the checkout applies to
/// every project and the image leaves out changes the programs silently (the image once ran the server GC the
/// checkout turns off, because Directory.Build.targets stayed behind).
/// </summary>
public sealed partial class DockerfileTests
{
    [Fact]
    public void The_image_build_copies_every_build_file_of_the_repository_root()
    {
        var root = ComposeFile.RepositoryRoot();
        var buildFiles = Directory.GetFiles(root, "Directory.*").Select(Path.GetFileName).Append("global.json").Order();
        var dockerfile = File.ReadAllLines(Path.Combine(root, "docker", "Dockerfile"));
        var copied = dockerfile.Select(line => CopyOfRootFiles().Match(line)).Where(match => match.Success)
            .SelectMany(match => match.Groups["files"].Value.Split(' ', StringSplitOptions.RemoveEmptyEntries)).ToHashSet();

        Assert.All(buildFiles, file => Assert.True(copied.Contains(file!), $"docker/Dockerfile does not copy {file}"));
    }

    // "COPY a b c ./": files from the build context's root into the working directory.
    [GeneratedRegex(@"^COPY (?<files>[^/]+) \./$")]
    private static partial Regex CopyOfRootFiles();
}
