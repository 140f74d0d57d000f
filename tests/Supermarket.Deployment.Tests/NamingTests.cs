using System.Reflection;
using System.Text.RegularExpressions;
using MassTransit;

namespace Supermarket.Deployment.Tests;

/// <summary>One name, one thing, across every assembly the deployment ships: a newcomer who finds a type by its name
/// finds the one it means, and a setting's section names one options class and one row of docs/settings.md.</summary>
public sealed partial class NamingTests
{
    private static readonly Assembly[] Shipped =
    [
        typeof(Supermarket.Api.Purchases.PurchaseIngest).Assembly,
        typeof(Supermarket.PurchasesWriter.PurchaseRecordingSetup).Assembly,
        typeof(Supermarket.SalesAggregator.SalesAggregationSetup).Assembly,
        typeof(Supermarket.LoadTest.Repository).Assembly,
    ];

    private static IEnumerable<Type> SupermarketTypes() =>
        Shipped.SelectMany(assembly => assembly.GetReferencedAssemblies().Where(name => name.Name!.StartsWith("Supermarket.", StringComparison.Ordinal))
                .Select(Assembly.Load).Append(assembly))
            .Distinct()
            .SelectMany(assembly => assembly.GetTypes())
            .Where(type => type.Namespace?.StartsWith("Supermarket.", StringComparison.Ordinal) == true
                && !type.IsNested && !type.IsDefined(typeof(System.Runtime.CompilerServices.CompilerGeneratedAttribute)));

    [Fact]
    public void No_two_types_share_a_name()
    {
        var shared = SupermarketTypes().GroupBy(type => type.Name).Where(group => group.Count() > 1)
            .Select(group => string.Join(", ", group.Select(type => type.FullName)));

        Assert.Empty(shared);
    }

    [Fact]
    public void Every_consumer_is_named_for_it_and_has_its_definition_in_a_file_of_its_own()
    {
        var consumers = SupermarketTypes().Where(type => type.IsClass && type.GetInterfaces().Any(i => i.IsGenericType && i.GetGenericTypeDefinition() == typeof(IConsumer<>))).ToList();

        Assert.NotEmpty(consumers);
        Assert.All(consumers, consumer => Assert.EndsWith("Consumer", consumer.Name, StringComparison.Ordinal));
        var sources = Directory.EnumerateFiles(Path.Combine(ComposeFile.RepositoryRoot(), "src"), "*.cs", SearchOption.AllDirectories)
            .Select(Path.GetFileNameWithoutExtension).ToHashSet();
        Assert.All(consumers, consumer => Assert.Contains(consumer.Name + "Definition", sources));
    }

    [Fact]
    public void Each_settings_section_is_one_options_class_and_one_row_of_the_settings_page()
    {
        var sections = SupermarketTypes()
            .Select(type => type.GetField("Section", BindingFlags.Public | BindingFlags.Static)?.GetRawConstantValue() as string)
            .OfType<string>().ToList();
        var rows = File.ReadLines(Path.Combine(ComposeFile.RepositoryRoot(), "docs", "settings.md"))
            .Select(line => SettingsRow().Match(line)).Where(match => match.Success).Select(match => match.Groups["section"].Value).ToList();

        Assert.Equal(sections.Count, sections.Distinct().Count());
        Assert.Equal(rows.Count, rows.Distinct().Count());
        Assert.All(sections, section => Assert.Contains(section, rows));
    }

    /// <summary>A setting added to an options class, or renamed there, has its name in its section's row: the page
    /// lists every setting a user can set, not only the sections.</summary>
    [Fact]
    public void Every_setting_of_an_options_class_is_named_in_its_row_of_the_settings_page()
    {
        var rows = File.ReadLines(Path.Combine(ComposeFile.RepositoryRoot(), "docs", "settings.md"))
            .Select(line => (Line: line, Match: SettingsRow().Match(line))).Where(row => row.Match.Success)
            .ToDictionary(row => row.Match.Groups["section"].Value, row => row.Line);
        var unnamed = SupermarketTypes()
            .Select(type => (Type: type, Section: type.GetField("Section", BindingFlags.Public | BindingFlags.Static)?.GetRawConstantValue() as string))
            .Where(options => options.Section is not null && rows.ContainsKey(options.Section))
            .SelectMany(options => options.Type.GetProperties(BindingFlags.Public | BindingFlags.Instance)
                .Where(property => property.SetMethod is { IsPublic: true })
                .Where(property => !rows[options.Section!].Contains($"`{property.Name}`", StringComparison.Ordinal))
                .Select(property => $"{options.Section}:{property.Name} ({options.Type.Name})"));

        Assert.Empty(unnamed);
    }

    [GeneratedRegex(@"^\| `(?<section>[A-Za-z:]+)` \| ")]
    private static partial Regex SettingsRow();
}
