namespace Supermarket.Security;

/// <summary>Files that hold secrets: their owner's alone from the moment they exist, and replaced whole.</summary>
public static class OwnerOnlyFile
{
    public static void Write(string path, string content)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        var draft = path + ".new";
        File.Delete(draft);
        var ownerOnly = new FileStreamOptions { Mode = FileMode.CreateNew, Access = FileAccess.Write };
        if (!OperatingSystem.IsWindows())
        {
            ownerOnly.UnixCreateMode = UnixFileMode.UserRead | UnixFileMode.UserWrite;
        }

        using (var writer = new StreamWriter(new FileStream(draft, ownerOnly)))
        {
            writer.Write(content);
        }

        File.Move(draft, path, overwrite: true);
    }
}
