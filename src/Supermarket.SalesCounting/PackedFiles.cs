using System.Buffers.Binary;
using System.Runtime.CompilerServices;

namespace Supermarket.SalesCounting;

/// <summary>
/// What a checkpoint holds that never changes, each in a file of its own, written once: the packed days and blocks of
/// <see cref="SalesByDay"/> (a file of the days, <see cref="SalesByDaySnapshot.WriteTo(Stream, PackedFiles)"/>, names
/// those written before and writes only those packed since; reading it back takes each as it is held) and a matrix's
/// base copy (<see cref="WriteNew"/>), which checkpoints name with the counters changed since.
/// </summary>
/// <remarks>
/// <para>Each process writes into a folder of its own under <see cref="Directory"/> (replicas of a shard share one
/// checkpoint folder), so it deletes only what it wrote: after each save, its files the save no longer names. A folder
/// no file was written into for <see cref="AbandonedAfter"/> is taken for one whose process is gone (restarted, or a
/// crash): its files that no checkpoint of this process names are deleted, at a start and after each save.</para>
/// <para>A file is written under a name of its own, flushed to disk and renamed into place before any file of the days
/// names it, so a file named is whole; its XXH3 checksum is checked as it is read back. A file that is missing or
/// damaged makes the days' file unreadable, which costs its reader what any damaged file costs: a rebuild, never a
/// wrong count.</para>
/// </remarks>
public sealed class PackedFiles
{
    /// <summary>How long a folder of packed files goes without a new file before its process is taken for gone.</summary>
    public static readonly TimeSpan AbandonedAfter = TimeSpan.FromDays(1);

    // 1: the block's store totals after its item totals.
    private const int Magic = 0x4B504253; // "SBPK"
    private const int Version = 1;
    private const string Extension = ".packed";
    private const string TemporaryExtension = ".packed.tmp";

    /// <summary>This process's folder under <see cref="Directory"/>.</summary>
    private readonly string _own = Guid.NewGuid().ToString("N");

    /// <summary>The name of each day or block this process wrote or read, while it is held.</summary>
    private readonly ConditionalWeakTable<object, string> _names = new();

    /// <summary>The files this process wrote, which it deletes once a save no longer names them.</summary>
    private readonly HashSet<string> _written = [];

    /// <summary>The files this process read: what the checkpoint it started from names.</summary>
    private readonly HashSet<string> _read = [];
    private readonly Lock _lock = new();

    public PackedFiles(string directory) => Directory = directory;

    /// <summary>The folder the files are in, a folder a process.</summary>
    public string Directory { get; }

    /// <summary>The name of <paramref name="packed"/>'s file (its process's folder and its own), written by
    /// <paramref name="write"/> first if it has none.</summary>
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

    /// <summary>Writes a new file with <paramref name="write"/> (a matrix's base, SalesMatrix.Save) and returns its
    /// name; it is deleted once a save no longer names it.</summary>
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

    /// <summary>Makes the file <paramref name="name"/> (this process's) written now, so its folder is not taken for
    /// abandoned (<see cref="AbandonedAfter"/>) while a checkpoint names it.</summary>
    /// <exception cref="FileNotFoundException">The file is gone.</exception>
    public void Touch(string name) => File.SetLastWriteTimeUtc(PathOf(name), DateTime.UtcNow);

    /// <summary>Reads the file <paramref name="name"/> with <paramref name="read"/>, checking its checksum; what it
    /// returns is known by that name, so it is never written again.</summary>
    /// <exception cref="InvalidDataException">The name is not one of these files', or the file is missing or damaged.</exception>
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

    /// <summary>Reads the file <paramref name="name"/> that <see cref="WriteNew"/> wrote with
    /// <paramref name="read"/>, checking its checksum (what <paramref name="read"/> leaves unread is checked too).</summary>
    /// <exception cref="InvalidDataException">The name is not one of these files', or the file is missing or damaged.</exception>
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

    /// <summary>Deletes this process's files that <paramref name="named"/> (what the file of the days just saved
    /// names) leaves out, and the files it leaves out in folders abandoned.</summary>
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

    /// <summary>At a start, once the checkpoint is read: deletes the files of folders abandoned that it did not name
    /// (what a process gone left behind: a restart's, a crash's).</summary>
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
                    // A file came into it since: left for a later deletion.
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
            throw new InvalidDataException($"A checkpoint cannot be loaded: {name} was damaged.");
        }
    }
}
