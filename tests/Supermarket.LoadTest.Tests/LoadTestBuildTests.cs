using Supermarket.LoadTest.Reporting;

namespace Supermarket.LoadTest.Tests;

public sealed class LoadTestBuildTests
{
    private static SystemUnderTest WithApi(string version) => new(
    [
        new SettingsGroup(LoadTestBuild.Api, [new Setting("service", LoadTestBuild.Api), new Setting("version", version)]),
        new SettingsGroup("Supermarket.PurchasesWriter", [new Setting("version", "1.0.0+0000000")]),
    ]);

    [Fact]
    public void An_API_built_from_another_commit_is_not_tested()
    {
        var disagreement = LoadTestBuild.DisagreementWith(WithApi("1.0.0+e8c3d09"), "1.0.0+f40977e");

        Assert.NotNull(disagreement);
        Assert.Contains("f40977e", disagreement);
        Assert.Contains("e8c3d09", disagreement);
    }

    [Fact]
    public void An_API_of_the_same_commit_is_tested_whatever_the_other_services_run()
    {
        // The rolling upgrade's previous writer runs an older build beside this one's API.
        Assert.Null(LoadTestBuild.DisagreementWith(WithApi("1.0.0+e8c3d09"), "1.0.0+e8c3d09"));
    }

    [Theory]
    [InlineData("1.0.0", "1.0.0+e8c3d09")]
    [InlineData("1.0.0+e8c3d09", "1.0.0")]
    [InlineData("1.0.0+e8c3d09", null)]
    public void A_build_that_does_not_name_its_commit_says_nothing_either_way(string api, string? loadTest) =>
        Assert.Null(LoadTestBuild.DisagreementWith(WithApi(api), loadTest));

    [Fact]
    public void An_API_that_did_not_answer_about_says_nothing_either_way()
    {
        var unreachable = new SystemUnderTest([new SettingsGroup("http://127.0.0.1:8081/", [new Setting("about", "not reachable (HttpRequestException)")])]);

        Assert.Null(LoadTestBuild.DisagreementWith(unreachable, "1.0.0+e8c3d09"));
    }

    [Fact]
    public void This_build_names_its_commit()
    {
        // The SDK adds the commit from git; docker/Dockerfile passes SOURCE_REVISION where there is no .git.
        Assert.Matches(@"\+[0-9a-f]{7,}$", LoadTestBuild.Version);
    }
}
