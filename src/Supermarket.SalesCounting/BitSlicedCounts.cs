using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;

namespace Supermarket.SalesCounting;

/// <summary>Each key's count held bit-sliced (plane k: bit k of every count), so a bitmap of keys is added a vector
/// at a time, not a cell at a time. A ranking's scratch, one thread's own.</summary>
internal sealed class BitSlicedCounts
{
    // Seven inputs make a 3-bit sum.
    private const int BitmapsTogether = 7;

    // Units added key by key wait in a byte a key (one passing 255 carries into the planes), joining the planes at
    // the end a bit of every byte at a time: cheaper than carrying each unit through the planes.
    private const int UnitBits = 8;

    // Planes from _planeCount on are zero, and there is room for three more: seven bitmaps add at most 7 to a count.
    private ulong[] _planes = [];
    private ulong[] _candidates = [];
    private byte[] _units = [];
    private ulong[] _unitPlanes = [];
    private readonly (ulong[] Array, int Offset)[] _waiting = new (ulong[], int)[BitmapsTogether];
    private int _waitingCount;
    private bool _unitsWaiting;
    private int _words;
    private int _planeCount;

    /// <summary><paramref name="words"/>: a multiple of <see cref="Vector{T}.Count"/>.</summary>
    public void Start(int words)
    {
        if (_words != words)
        {
            (_words, _planes, _candidates) = (words, new ulong[words * 4], new ulong[words]);
            (_units, _unitPlanes) = (new byte[words * 64], new ulong[words * UnitBits]);
            (_planeCount, _unitsWaiting, _waitingCount) = (0, false, 0);
        }

        // Left as it was by a ranking that failed halfway, if one did.
        Clear();
    }

    /// <summary>Added once seven wait: the bitmap must not lose a bit until <see cref="OfferTop"/> (bits may be
    /// added).</summary>
    public void Add(ulong[] array, int offset)
    {
        if ((uint)offset > (uint)(array.Length - _words))
        {
            throw new ArgumentOutOfRangeException(nameof(offset), offset, $"A bitmap of {_words} words was expected.");
        }

        _waiting[_waitingCount++] = (array, offset);
        if (_waitingCount == BitmapsTogether)
        {
            AddWaiting();
        }
    }

    public void AddOne(int key)
    {
        _unitsWaiting = true;
        if (++_units[key] == 0)
        {
            CarryIntoPlanes(key, 1 << UnitBits);
        }
    }

    /// <summary><paramref name="units"/>: positive.</summary>
    public void Add(int key, long units)
    {
        if ((ulong)units >= 1 << UnitBits)
        {
            CarryIntoPlanes(key, units);
            return;
        }

        _unitsWaiting = true;
        var sum = _units[key] + (int)units;
        _units[key] = (byte)sum;
        if (sum >> UnitBits != 0)
        {
            CarryIntoPlanes(key, 1 << UnitBits);
        }
    }

    /// <summary>Ties by the lower key, keys counted zero left out; ids are keys less one plus
    /// <paramref name="firstId"/>.</summary>
    public void OfferTop(ref RangeRanking ranking, int count, int firstId)
    {
        AddWaiting();
        if (_unitsWaiting)
        {
            AddUnits();
        }

        if (_planeCount == 0)
        {
            return;
        }

        // From the highest plane down, candidates with the plane's bit beat those without: if fewer than needed they
        // all rank, else the rest come from them. What stays are ties.
        var candidates = _candidates.AsSpan(0, _words);
        Plane(0).CopyTo(candidates);
        for (var plane = 1; plane < _planeCount; plane++)
        {
            Or(candidates, Plane(plane));
        }

        var needed = count;
        for (var plane = _planeCount - 1; plane >= 0 && needed > 0; plane--)
        {
            var bits = Plane(plane);
            var set = 0L;
            for (var word = 0; word < candidates.Length; word++)
            {
                set += BitOperations.PopCount(candidates[word] & bits[word]);
            }

            if (set == 0)
            {
                continue;
            }

            if (set >= needed)
            {
                for (var word = 0; word < candidates.Length; word++)
                {
                    candidates[word] &= bits[word];
                }

                continue;
            }

            for (var word = 0; word < candidates.Length; word++)
            {
                for (var ranked = candidates[word] & bits[word]; ranked != 0; ranked &= ranked - 1)
                {
                    var key = (word << 6) + BitOperations.TrailingZeroCount(ranked);
                    ranking.Offer(key - 1 + firstId, CountOf(key));
                }

                candidates[word] &= ~bits[word];
            }

            needed -= (int)set;
        }

        for (var word = 0; word < candidates.Length && needed > 0; word++)
        {
            for (var tied = candidates[word]; tied != 0 && needed > 0; tied &= tied - 1, needed--)
            {
                var key = (word << 6) + BitOperations.TrailingZeroCount(tied);
                ranking.Offer(key - 1 + firstId, CountOf(key));
            }
        }
    }

    public void Clear()
    {
        _planes.AsSpan(0, _planeCount * _words).Clear();
        if (_unitsWaiting)
        {
            _units.AsSpan().Clear();
        }

        _waiting.AsSpan().Clear();
        (_planeCount, _unitsWaiting, _waitingCount) = (0, false, 0);
    }

    /// <summary>Once every bitmap waiting was added.</summary>
    private long CountOf(int key)
    {
        long count = 0;
        var (word, bit) = (key >> 6, key & 63);
        for (var plane = 0; plane < _planeCount; plane++)
        {
            count |= (long)((_planes[(plane * _words) + word] >> bit) & 1) << plane;
        }

        return count;
    }

    private void CarryIntoPlanes(int key, long units)
    {
        var (word, bit) = (key >> 6, 1UL << key);
        for (var remaining = (ulong)units; remaining != 0; remaining &= remaining - 1)
        {
            var plane = BitOperations.TrailingZeroCount(remaining);
            while (plane < _planeCount && (_planes[(plane * _words) + word] & bit) != 0)
            {
                _planes[(plane * _words) + word] &= ~bit;
                plane++;
            }

            if (plane >= _planeCount)
            {
                Grow(plane + 1);
            }

            _planes[(plane * _words) + word] |= bit;
        }
    }

    /// <summary>Bit k of the bytes of 64 keys makes a word of plane k, and those planes are added to the counts.</summary>
    private void AddUnits()
    {
        ref var units = ref MemoryMarshal.GetArrayDataReference(_units);
        var words = _words;
        var reached = Vector512<byte>.Zero;
        for (var word = 0; word < words; word++)
        {
            reached |= Vector512.LoadUnsafe(ref units, (nuint)word * 64);
        }

        var bits = UnitBits;
        while (bits > 0 && (reached & Vector512.Create((byte)(1 << (bits - 1)))) == Vector512<byte>.Zero)
        {
            bits--;
        }

        ref var unitPlanes = ref MemoryMarshal.GetArrayDataReference(_unitPlanes);
        for (var word = 0; word < words; word++)
        {
            ref var bytes = ref Unsafe.Add(ref units, word * 64);
            var keys = Vector512.ShiftLeft(Vector512.LoadUnsafe(ref bytes), UnitBits - bits);
            Vector512<byte>.Zero.StoreUnsafe(ref bytes);
            for (var bit = bits - 1; bit >= 0; bit--)
            {
                Unsafe.Add(ref unitPlanes, (bit * words) + word) = keys.ExtractMostSignificantBits();
                keys += keys;
            }
        }

        _unitsWaiting = false;
        if (bits > 0)
        {
            AddPlanes(ref unitPlanes, bits);
        }
    }

    /// <summary>Counts held bit-sliced (a block's store totals), plane k at word k × words from
    /// <paramref name="offset"/>, added at once.</summary>
    public void Add(ulong[] array, int offset, int bits)
    {
        if (bits < 1 || (uint)offset > (uint)(array.Length - (bits * _words)))
        {
            throw new ArgumentOutOfRangeException(nameof(offset), offset, $"{bits} planes of {_words} words were expected.");
        }

        AddPlanes(ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(array), offset), bits);
    }

    private void AddPlanes(ref ulong added, int bits)
    {
        var words = _words;
        Grow(Math.Max(_planeCount, bits));
        var top = _planeCount;
        ref var planes = ref MemoryMarshal.GetArrayDataReference(_planes);
        var carriedOut = Vector<ulong>.Zero;
        for (var word = 0; word < words; word += Vector<ulong>.Count)
        {
            var carry = Vector<ulong>.Zero;
            for (var plane = 0; plane < top; plane++)
            {
                var at = (nuint)((plane * words) + word);
                var addend = plane < bits ? Vector.LoadUnsafe(ref added, at) : Vector<ulong>.Zero;
                (var sum, carry) = FullAdd(Vector.LoadUnsafe(ref planes, at), addend, carry);
                Vector.StoreUnsafe(sum, ref planes, at);
                if (plane >= bits && carry == Vector<ulong>.Zero)
                {
                    break;
                }
            }

            // The plane above the top is zero: the last carry is its bits.
            Vector.StoreUnsafe(carry, ref planes, (nuint)((top * words) + word));
            carriedOut |= carry;
        }

        if (carriedOut != Vector<ulong>.Zero)
        {
            Grow(top + 1);
        }
    }

    /// <summary>For each vector of keys, the bitmaps' 3-bit sum by a tree of full adders, carried into the planes.</summary>
    private void AddWaiting()
    {
        if (_waitingCount == 0)
        {
            return;
        }

        // Fewer than seven: the rest are zeros.
        _candidates.AsSpan(0, _words).Clear();
        _waiting.AsSpan(_waitingCount).Fill((_candidates, 0));
        var arrays = _waiting;

        ref var planes = ref MemoryMarshal.GetArrayDataReference(_planes);
        var words = _words;
        var (lowest, middle, highest) = (Vector<ulong>.Zero, Vector<ulong>.Zero, Vector<ulong>.Zero);
        var topPlane = -1;
        for (var word = 0; word < words; word += Vector<ulong>.Count)
        {
            var (s1, c1) = FullAdd(Load(arrays[0], word), Load(arrays[1], word), Load(arrays[2], word));
            var (s2, c2) = FullAdd(Load(arrays[3], word), Load(arrays[4], word), Load(arrays[5], word));
            var (bit0, c3) = FullAdd(s1, s2, Load(arrays[6], word));
            var (bit1, bit2) = FullAdd(c1, c2, c3);

            var at = (nuint)word;
            var plane = Vector.LoadUnsafe(ref planes, at);
            var sum = plane ^ bit0;
            var carry = plane & bit0;
            Vector.StoreUnsafe(sum, ref planes, at);
            lowest |= sum;

            at += (nuint)words;
            plane = Vector.LoadUnsafe(ref planes, at);
            (sum, carry) = FullAdd(plane, bit1, carry);
            Vector.StoreUnsafe(sum, ref planes, at);
            middle |= sum;

            at += (nuint)words;
            plane = Vector.LoadUnsafe(ref planes, at);
            (sum, carry) = FullAdd(plane, bit2, carry);
            Vector.StoreUnsafe(sum, ref planes, at);
            highest |= sum;

            var reached = 2;
            for (; carry != Vector<ulong>.Zero; reached++)
            {
                at += (nuint)words;
                plane = Vector.LoadUnsafe(ref planes, at);
                Vector.StoreUnsafe(plane ^ carry, ref planes, at);
                carry &= plane;
            }

            // The last plane a carry reached holds it: it is not zero.
            topPlane = Math.Max(topPlane, reached == 2 ? -1 : reached);
        }

        topPlane = Math.Max(topPlane, highest != Vector<ulong>.Zero ? 2 : middle != Vector<ulong>.Zero ? 1 : lowest != Vector<ulong>.Zero ? 0 : -1);
        if (topPlane >= _planeCount)
        {
            Grow(topPlane + 1);
        }

        _waiting.AsSpan().Clear();
        _waitingCount = 0;

        static Vector<ulong> Load((ulong[] Array, int Offset) bitmap, int word) =>
            Vector.LoadUnsafe(ref MemoryMarshal.GetArrayDataReference(bitmap.Array), (nuint)(bitmap.Offset + word));
    }

    private static (Vector<ulong> Sum, Vector<ulong> Carry) FullAdd(Vector<ulong> a, Vector<ulong> b, Vector<ulong> c)
    {
        var half = a ^ b;
        return (half ^ c, (a & b) | (half & c));
    }

    private void Grow(int planeCount)
    {
        if ((planeCount + 3) * _words > _planes.Length)
        {
            Array.Resize(ref _planes, Math.Max(_planes.Length * 2, (planeCount + 3) * _words));
        }

        _planeCount = planeCount;
    }

    private Span<ulong> Plane(int plane) => _planes.AsSpan(plane * _words, _words);

    private static void Or(Span<ulong> into, ReadOnlySpan<ulong> bits)
    {
        for (var word = 0; word < into.Length; word++)
        {
            into[word] |= bits[word];
        }
    }
}
