namespace Supermarket.ServiceDefaults.About;

/// <summary>An options class bound from a configuration section, as registered by <c>AddValidatedOptions</c>.</summary>
public sealed record SettingsSection(string Name, Type OptionsType);
