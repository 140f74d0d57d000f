using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace Supermarket.SalesCounting;

/// <summary>
/// Each key's count, held bit-sliced: plane k holds bit k of every key's count. A bitmap (a day's items sold at a
/// store) adds one to each key it holds a vector of keys at a time: up to seven bitmaps are summed by a tree of full
/// adders and the 3-bit sum is carried into the planes, so a day costs a few operations a 256 keys, not one a cell.
/// The K largest counts are then found a plane at a time from the highest. Single keys are added too (units beyond an
/// item's first, a store that sold few items). Scratch of a ranking of a store's items over a range of days
/// (<see cref="SalesByDay"/>); one thread's own.
/// </summary>
internal sealed class BitSlicedCounts
{
    /// <summary>Bitmaps summed together: seven inputs make a 3-bit sum.</summary>
    private const int BitmapsTogether = 7;

    /// <summary>Single units added one by one wait in a 4-bit counter a key, held bit-sliced like the planes (layer k:
    /// bit k), carried without a branch; the layers are added to the planes as bitmaps at the end (layer k 2^k times).
    /// Carrying each unit through the planes on its own cost several unpredictable branches.</summary>
    private const int Layers = 4;

    // Planes from _planeCount on are zero, and there is room for three more: seven bitmaps add at most 7 to a count.
    private ulong[] _planes = [];
    private ulong[] _candidates = [];
    // A key's four layer words side by side (word × Layers + layer), so a unit touches one cache line; spread out into
    // _layerBitmaps (layer × words + word) to be added.
    private ulong[] _layers = [];
    private ulong[] _layerBitmaps = [];
    private readonly (ulong[] Array, int Offset)[] _waiting = new (ulong[], int)[BitmapsTogether];
    private int _waitingCount;
    private int _layersUsed;
    private int _words;
    private int _planeCount;

    /// <summary>Begins counting keys 0 to 64 × <paramref name="words"/> - 1 (<paramref name="words"/> a multiple of
    /// <see cref="Vector{T}.Count"/>), all counts zero.</summary>
    public void Start(int words)
    {
        if (_words != words)
        {
            (_words, _planes, _candidates, _layers) = (words, new ulong[words * 4], new ulong[words], new ulong[words * Layers]);
            _layerBitmaps = new ulong[words * Layers];
            (_planeCount, _layersUsed, _waitingCount) = (0, 0, 0);
        }

        // Left as it was by a ranking that failed halfway, if one did.
        Clear();
    }

    /// <summary>Adds one to the count of every key whose bit is set in the bitmap at <paramref name="offset"/> of
    /// <paramref name="array"/>, which must not lose a bit until <see cref="OfferTop"/> (bits may be added).</summary>
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

    /// <summary>Adds one to the count of <paramref name="key"/>.</summary>
    public void AddOne(int key)
    {
        var (word, bit) = (key >> 6, 1UL << key);
        ref var layer0 = ref _layers[word * Layers];
        var carry = layer0 & bit;
        layer0 ^= bit;
        ref var layer1 = ref Unsafe.Add(ref layer0, 1);
        var next = layer1 & carry;
        layer1 ^= carry;
        carry = next;
        ref var layer2 = ref Unsafe.Add(ref layer0, 2);
        next = layer2 & carry;
        layer2 ^= carry;
        carry = next;
        ref var layer3 = ref Unsafe.Add(ref layer0, 3);
        next = layer3 & carry;
        layer3 ^= carry;
        _layersUsed = 1;
        if (next != 0)
        {
            Add(key, 1 << Layers);
        }
    }

    /// <summary>Adds <paramref name="units"/> (positive) to the count of <paramref name="key"/>.</summary>
    public void Add(int key, long units)
    {
        if (units == 1)
        {
            AddOne(key);
            return;
        }

        var (word, bit) = (key >> 6, 1UL << key);
        for (var remaining = (ulong)units; remaining != 0; remaining &= remaining - 1)
        {
            // Adds 2^plane: a carry through the planes above while the key's bit is set there.
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

    /// <summary>Offers <paramref name="ranking"/> the <paramref name="count"/> keys with the largest counts (ties by
    /// the lower key), leaving out keys counted zero; ids are keys less one plus <paramref name="firstId"/>.</summary>
    public void OfferTop(ref RangeRanking ranking, int count, int firstId)
    {
        if (_layersUsed != 0)
        {
            // As many layers as the highest with a bit set: each unit above was carried through those below.
            var (reached1, reached2, reached3) = (0UL, 0UL, 0UL);
            for (var at = 0; at < _layers.Length; at += Layers)
            {
                (reached1, reached2, reached3) = (reached1 | _layers[at + 1], reached2 | _layers[at + 2], reached3 | _layers[at + 3]);
            }

            _layersUsed = reached3 != 0 ? 4 : reached2 != 0 ? 3 : reached1 != 0 ? 2 : 1;
        }

        for (var layer = 0; layer < _layersUsed; layer++)
        {
            var bitmap = _layerBitmaps.AsSpan(layer * _words, _words);
            for (var word = 0; word < _words; word++)
            {
                bitmap[word] = _layers[(word * Layers) + layer];
            }

            for (var times = 0; times < 1 << layer; times++)
            {
                Add(_layerBitmaps, layer * _words);
            }
        }

        AddWaiting();
        if (_layersUsed != 0)
        {
            _layers.AsSpan().Clear();
        }

        _layersUsed = 0;
        if (_planeCount == 0)
        {
            return;
        }

        // Candidates: every key counted. Then from the highest plane down: the candidates with the plane's bit set
        // beat those without; if they are fewer than still needed they all rank and the rest come from those without,
        // else the rest come from them. What stays are ties.
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

    /// <summary>Zeroes every count, for the next ranking.</summary>
    public void Clear()
    {
        _planes.AsSpan(0, _planeCount * _words).Clear();
        if (_layersUsed != 0)
        {
            _layers.AsSpan().Clear();
        }

        _waiting.AsSpan().Clear();
        (_planeCount, _layersUsed, _waitingCount) = (0, 0, 0);
    }

    /// <summary>The count of <paramref name="key"/>, with every bitmap waiting added.</summary>
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

    /// <summary>Adds the bitmaps waiting: for each vector of keys, their 3-bit sum by full adders, then carried into
    /// the planes.</summary>
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

    /// <summary>Makes <paramref name="planeCount"/> planes in use, with room for three more.</summary>
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
