using System.Buffers.Binary;
using System.Runtime.CompilerServices;

namespace Supermarket.SalesCounting;

/// <summary>
/// The packed days and blocks of <see cref="SalesByDay"/>, each in a file of its own in one folder, written once: they
/// never change, so a file of the days (<see cref="SalesByDaySnapshot.WriteTo(Stream, PackedFiles)"/>) names those
/// written before and writes only those packed since, and reading it back takes each as it is held.
/// </summary>
/// <remarks>
/// A file is written under a name of its own, flushed to disk and renamed into place before any file of the days names
/// it, so a file named is whole; its XXH3 checksum is checked as it is read back. A file that is missing or damaged
/// makes the days' file unreadable, which costs its reader what any damaged file costs: a rebuild, never a wrong count.
/// </remarks>
public sealed class PackedFiles
{
    private const int Magic = 0x4B504253; // "SBPK"
    private const string Extension = ".packed";
    private const string TemporaryExtension = ".packed.tmp";

    /// <summary>The name of each day or block this process wrote or read, while it is held.</summary>
    private readonly ConditionalWeakTable<object, string> _names = new();

    /// <summary>The files this process wrote or read, which only it deletes once no file of the days it wrote names them.</summary>
    private readonly HashSet<string> _known = [];
    private readonly Lock _lock = new();

    public PackedFiles(string directory) => Directory = directory;

    /// <summary>The folder the files are in.</summary>
    public string Directory { get; }

    /// <summary>The name of <paramref name="packed"/>'s file, written by <paramref name="write"/> first if it has none.</summary>
    internal string NameOf(object packed, Action<BinaryWriter> write)
    {
        lock (_lock)
        {
            if (_names.TryGetValue(packed, out var written) && File.Exists(PathOf(written)))
            {
                return written;
            }
        }

        var name = $"{Guid.NewGuid():N}{Extension}";
        Write(name, write);
        lock (_lock)
        {
            _names.AddOrUpdate(packed, name);
            _known.Add(name);
        }

        return name;
    }

    /// <summary>Reads the file <paramref name="name"/> with <paramref name="read"/>, checking its checksum; what it
    /// returns is known by that name, so it is never written again.</summary>
    /// <exception cref="InvalidDataException">The name is not one of these files', or the file is missing or damaged.</exception>
    internal T Read<T>(string name, Func<HeldArrays, T> read)
        where T : class
    {
        if (Path.GetFileName(name) != name || !name.EndsWith(Extension, StringComparison.Ordinal))
        {
            throw new InvalidDataException($"Sales by day cannot be loaded: {name} is not a packed file's name.");
        }

        T packed;
        try
        {
            using var file = new FileStream(PathOf(name), FileMode.Open, FileAccess.Read, FileShare.Read | FileShare.Delete, 1 << 16);
            Span<byte> number = stackalloc byte[sizeof(ulong)];
            file.ReadExactly(number[..sizeof(int)]);
            Require(BinaryPrimitives.ReadInt32LittleEndian(number) == Magic && file.Length >= sizeof(int) + sizeof(ulong), name);
            var checksummed = ChecksummedStream.Reading(file, file.Length - sizeof(int) - sizeof(ulong));
            packed = read(new HeldArrays(new BinaryReader(checksummed), checksummed.Remaining));
            Require(checksummed.Remaining == 0, name);
            file.ReadExactly(number);
            Require(BinaryPrimitives.ReadUInt64LittleEndian(number) == checksummed.Checksum, name);
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            throw new InvalidDataException($"Sales by day cannot be loaded: {name} could not be read.", exception);
        }

        lock (_lock)
        {
            _names.AddOrUpdate(packed, name);
            _known.Add(name);
        }

        return packed;
    }

    /// <summary>Deletes the files this process wrote or read that <paramref name="named"/> (what the file of the days
    /// just saved names) leaves out.</summary>
    public void DeleteAllBut(IReadOnlySet<string> named) => Delete(name => !named.Contains(name) && Forget(name));

    /// <summary>Deletes every file this process neither wrote nor read: at a start, once the checkpoint is read, what a
    /// crash or an older process left behind.</summary>
    public void DeleteUnknown() => Delete(IsUnknown);

    private bool IsUnknown(string name)
    {
        lock (_lock)
        {
            return !_known.Contains(name);
        }
    }

    private bool Forget(string name)
    {
        lock (_lock)
        {
            return _known.Remove(name);
        }
    }

    private void Delete(Func<string, bool> deleted)
    {
        if (!System.IO.Directory.Exists(Directory))
        {
            return;
        }

        foreach (var path in System.IO.Directory.EnumerateFiles(Directory))
        {
            var name = Path.GetFileName(path);
            if ((name.EndsWith(Extension, StringComparison.Ordinal) || name.EndsWith(TemporaryExtension, StringComparison.Ordinal)) && deleted(name))
            {
                try
                {
                    File.Delete(path);
                }
                catch (IOException)
                {
                    // Left for a later save's or start's deletion.
                }
            }
        }
    }

    private void Write(string name, Action<BinaryWriter> write)
    {
        System.IO.Directory.CreateDirectory(Directory);
        var temporary = PathOf($"{Path.GetFileNameWithoutExtension(name)}{TemporaryExtension}");
        try
        {
            using (var stored = File.Create(temporary))
            {
                Span<byte> number = stackalloc byte[sizeof(ulong)];
                BinaryPrimitives.WriteInt32LittleEndian(number, Magic);
                stored.Write(number[..sizeof(int)]);
                var checksummed = ChecksummedStream.Writing(stored);
                using (var writer = new BinaryWriter(new BufferedStream(checksummed, 1 << 16), System.Text.Encoding.UTF8, leaveOpen: true))
                {
                    write(writer);
                }

                BinaryPrimitives.WriteUInt64LittleEndian(number, checksummed.Checksum);
                stored.Write(number);
                // On disk before any file of the days names it.
                stored.Flush(flushToDisk: true);
            }

            File.Move(temporary, PathOf(name));
        }
        finally
        {
            File.Delete(temporary);
        }
    }

    private string PathOf(string name) => Path.Combine(Directory, name);

    private static void Require(bool holds, string name)
    {
        if (!holds)
        {
            throw new InvalidDataException($"Sales by day cannot be loaded: {name} was damaged.");
        }
    }
}
