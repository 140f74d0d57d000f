using System.Buffers.Binary;
using System.Runtime.CompilerServices;

namespace Supermarket.SalesCounting;

/// <summary>What a checkpoint holds that never changes (packed days and blocks, a matrix's base), each written once
/// into a file of its own (docs/architecture.md, "Sales over a range of days").</summary>
/// <remarks>Replicas of a shard share the folder, so each process writes into a folder of its own and deletes only
/// its own files, besides those left unnamed in folders abandoned.</remarks>
public sealed class PackedFiles
{
    /// <summary>A folder no file was written into for this long is taken for a process gone.</summary>
    public static readonly TimeSpan AbandonedAfter = TimeSpan.FromDays(1);

    private const int Magic = 0x4B504253; // "SBPK"
    private const int Version = 1;
    private const string Extension = ".packed";
    private const string TemporaryExtension = ".packed.tmp";

    private readonly string _own = Guid.NewGuid().ToString("N");

    // Each day or block this process wrote or read, while it is held: it is never written again.
    private readonly ConditionalWeakTable<object, string> _names = new();

    private readonly HashSet<string> _written = [];

    // What the checkpoint it started from names.
    private readonly HashSet<string> _read = [];
    private readonly Lock _lock = new();

    public PackedFiles(string directory) => Directory = directory;

    public string Directory { get; }

    /// <summary>Written by <paramref name="write"/> first if <paramref name="packed"/> has no file.</summary>
    internal string NameOf(object packed, Action<BinaryWriter> write)
    {
        lock (_lock)
        {
            if (_names.TryGetValue(packed, out var written) && File.Exists(PathOf(written)))
            {
                return written;
            }
        }

        var name = WriteNew(write);
        lock (_lock)
        {
            _names.AddOrUpdate(packed, name);
        }

        return name;
    }

    /// <summary>A matrix's base (SalesMatrix.Save); deleted once a save no longer names it.</summary>
    public string WriteNew(Action<Stream> write) => WriteNew(writer => write(writer.BaseStream));

    private string WriteNew(Action<BinaryWriter> write)
    {
        var name = $"{_own}/{Guid.NewGuid():N}{Extension}";
        Write(name, write);
        lock (_lock)
        {
            _written.Add(name);
        }

        return name;
    }

    /// <summary>Keeps the folder from being taken for abandoned while a checkpoint names the file; throws if it is
    /// gone.</summary>
    public void Touch(string name) => File.SetLastWriteTimeUtc(PathOf(name), DateTime.UtcNow);

    /// <summary>Throws <see cref="InvalidDataException"/> for a name not of these files, or a file missing or damaged.</summary>
    internal T Read<T>(string name, Func<HeldArrays, T> read)
        where T : class
    {
        var packed = ReadFile(name, checksummed =>
        {
            var held = read(new HeldArrays(new BinaryReader(checksummed), checksummed.Remaining));
            Require(checksummed.Remaining == 0, name);
            return held;
        });
        lock (_lock)
        {
            _names.AddOrUpdate(packed, name);
        }

        return packed;
    }

    /// <summary>What <paramref name="read"/> leaves unread is checksummed too.</summary>
    public void Read(string name, Action<Stream> read) => ReadFile(name, checksummed =>
    {
        read(checksummed);
        checksummed.ReadToLimit();
        return true;
    });

    private T ReadFile<T>(string name, Func<ChecksummedStream, T> read)
    {
        if (name.Split('/') is not [var folder, var file] || !IsHex(folder) || !file.EndsWith(Extension, StringComparison.Ordinal) || !IsHex(file[..^Extension.Length]))
        {
            throw new InvalidDataException($"A checkpoint cannot be loaded: {name} is not a packed file's name.");
        }

        T packed;
        try
        {
            using var stream = new FileStream(PathOf(name), FileMode.Open, FileAccess.Read, FileShare.Read | FileShare.Delete, 1 << 16);
            var reader = new BinaryReader(stream);
            Require(stream.Length >= (2 * sizeof(int)) + sizeof(ulong) && reader.ReadInt32() == Magic && reader.ReadInt32() == Version, name);
            var checksummed = ChecksummedStream.Reading(stream, stream.Length - (2 * sizeof(int)) - sizeof(ulong));
            packed = read(checksummed);
            Require(reader.ReadUInt64() == checksummed.Checksum, name);
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            throw new InvalidDataException($"A checkpoint cannot be loaded: {name} could not be read.", exception);
        }

        lock (_lock)
        {
            _read.Add(name);
        }

        return packed;
    }

    /// <summary><paramref name="named"/>: what the checkpoint just saved names.</summary>
    public void DeleteAllBut(IReadOnlySet<string> named)
    {
        string[] unnamed;
        lock (_lock)
        {
            unnamed = [.. _written.Where(name => !named.Contains(name))];
            _written.ExceptWith(unnamed);
        }

        foreach (var name in unnamed)
        {
            Delete(PathOf(name));
        }

        DeleteAbandoned(named);
    }

    /// <summary>At a start, once the checkpoint is read: deletes what a process gone (restarted, crashed) left
    /// unnamed.</summary>
    public void DeleteAbandoned()
    {
        HashSet<string> read;
        lock (_lock)
        {
            read = [.. _read];
        }

        DeleteAbandoned(read);
    }

    private void DeleteAbandoned(IReadOnlySet<string> named)
    {
        if (!System.IO.Directory.Exists(Directory))
        {
            return;
        }

        foreach (var folder in System.IO.Directory.EnumerateDirectories(Directory))
        {
            var files = new DirectoryInfo(folder).GetFiles();
            if (Path.GetFileName(folder) == _own || files.Any(file => DateTime.UtcNow - file.LastWriteTimeUtc < AbandonedAfter))
            {
                continue;
            }

            var left = files.Length;
            foreach (var file in files)
            {
                if (!named.Contains($"{Path.GetFileName(folder)}/{file.Name}"))
                {
                    Delete(file.FullName);
                    left--;
                }
            }

            if (left == 0)
            {
                try
                {
                    System.IO.Directory.Delete(folder);
                }
                catch (IOException)
                {
                    // A file came into it since.
                }
            }
        }
    }

    private static void Delete(string path)
    {
        try
        {
            File.Delete(path);
        }
        catch (IOException)
        {
            // Left for a later deletion.
        }
    }

    private static bool IsHex(string text) => text.Length == 32 && text.All(char.IsAsciiHexDigitLower);

    private void Write(string name, Action<BinaryWriter> write)
    {
        System.IO.Directory.CreateDirectory(Path.Combine(Directory, _own));
        var temporary = PathOf($"{name[..^Extension.Length]}{TemporaryExtension}");
        try
        {
            using (var stored = File.Create(temporary))
            {
                Span<byte> number = stackalloc byte[sizeof(ulong)];
                BinaryPrimitives.WriteInt32LittleEndian(number, Magic);
                stored.Write(number[..sizeof(int)]);
                BinaryPrimitives.WriteInt32LittleEndian(number, Version);
                stored.Write(number[..sizeof(int)]);
                var checksummed = ChecksummedStream.Writing(stored);
                using (var writer = new BinaryWriter(new BufferedStream(checksummed, 1 << 16), System.Text.Encoding.UTF8, leaveOpen: true))
                {
                    write(writer);
                }

                BinaryPrimitives.WriteUInt64LittleEndian(number, checksummed.Checksum);
                stored.Write(number);
                // On disk, then renamed, before anything names it: a file named is whole.
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
            throw new InvalidDataException($"A checkpoint cannot be loaded: {name} was damaged.");
        }
    }
}
