#include "models/common/crc32.hpp"

#include <array>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace gbesim {
namespace {

constexpr std::uint32_t kReflectedPoly = 0xEDB88320U;

__extension__ typedef unsigned __int128 U128;

// Slicing-by-8 tables: table[k][b] is the CRC of byte b followed by k zero bytes.
using Tables = std::array<std::array<std::uint32_t, 256>, 8>;

constexpr Tables make_tables() {
  Tables t{};
  for (std::uint32_t b = 0; b < 256; ++b) {
    std::uint32_t c = b;
    for (int i = 0; i < 8; ++i) c = (c & 1U) ? (c >> 1) ^ kReflectedPoly : c >> 1;
    t[0][b] = c;
  }
  for (std::size_t k = 1; k < 8; ++k) {
    for (std::uint32_t b = 0; b < 256; ++b) t[k][b] = (t[k - 1][b] >> 8) ^ t[0][t[k - 1][b] & 0xFF];
  }
  return t;
}

constexpr Tables kTables = make_tables();

// Advances the (non-inverted) CRC register over bytes, eight at a time.
std::uint32_t update_tables(std::uint32_t c, const std::uint8_t* data, std::size_t length) {
  while (length >= 8) {
    std::uint32_t lo;
    std::uint32_t hi;
    std::memcpy(&lo, data, 4);
    std::memcpy(&hi, data + 4, 4);
    if constexpr (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) {
      lo = __builtin_bswap32(lo);
      hi = __builtin_bswap32(hi);
    }
    lo ^= c;
    c = kTables[7][lo & 0xFF] ^ kTables[6][(lo >> 8) & 0xFF] ^ kTables[5][(lo >> 16) & 0xFF] ^
        kTables[4][lo >> 24] ^ kTables[3][hi & 0xFF] ^ kTables[2][(hi >> 8) & 0xFF] ^
        kTables[1][(hi >> 16) & 0xFF] ^ kTables[0][hi >> 24];
    data += 8;
    length -= 8;
  }
  if (length >= 4) {  // one slicing-by-4 step instead of four dependent byte steps
    std::uint32_t w;
    std::memcpy(&w, data, 4);
    if constexpr (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) w = __builtin_bswap32(w);
    w ^= c;
    c = kTables[3][w & 0xFF] ^ kTables[2][(w >> 8) & 0xFF] ^ kTables[1][(w >> 16) & 0xFF] ^
        kTables[0][w >> 24];
    data += 4;
    length -= 4;
  }
  while (length-- > 0) c = (c >> 8) ^ kTables[0][(c ^ *data++) & 0xFF];
  return c;
}

#if defined(__x86_64__)
// Carry-less-multiply folding (the method of Gopal et al., "Fast CRC Computation for Generic
// Polynomials Using PCLMULQDQ", Intel 2009), derived here for the bit-reflected CRC-32. A 128-bit
// lane holds 128 message bits, bit i of the little-endian lane being the i-th bit on the wire
// (coefficient of the highest remaining power first). Moving a lane D bits further along
// multiplies its first 64 bits by x^(D+32) mod P and its last 64 by x^(D-32) mod P; the
// constants are those remainders bit-reflected and shifted left by one, because a carry-less
// product of two reflected operands comes out one bit short of the reflected product.
constexpr std::uint64_t x_pow_mod_p(int n) {
  std::uint64_t r = 1;
  for (int i = 0; i < n; ++i) {
    r <<= 1;
    if (r & (std::uint64_t{1} << 32)) r ^= 0x104C11DB7ULL;
  }
  return r;
}

constexpr std::uint64_t reflect(std::uint64_t v, int width) {
  std::uint64_t out = 0;
  for (int i = 0; i < width; ++i)
    if (v & (std::uint64_t{1} << i)) out |= std::uint64_t{1} << (width - 1 - i);
  return out;
}

constexpr std::uint64_t fold_constant(int n) {
  return reflect(x_pow_mod_p(n), 32) << 1;
}

// floor(x^64 / P), for the final Barrett reduction.
constexpr std::uint64_t x64_div_p() {
  std::uint64_t quotient = 0;
  U128 r = static_cast<U128>(1) << 64;
  for (int i = 64; i >= 32; --i) {
    if ((r >> i) & 1) {
      r ^= static_cast<U128>(0x104C11DB7ULL) << (i - 32);
      quotient |= std::uint64_t{1} << (i - 32);
    }
  }
  return quotient;
}

constexpr std::uint64_t kFold4Lo = fold_constant(4 * 128 + 32);
constexpr std::uint64_t kFold4Hi = fold_constant(4 * 128 - 32);
constexpr std::uint64_t kFold1Lo = fold_constant(128 + 32);
constexpr std::uint64_t kFold1Hi = fold_constant(128 - 32);  // also folds 128 -> 96 bits
constexpr std::uint64_t kFold64 = fold_constant(64);         // folds 96 -> 64 bits
constexpr std::uint64_t kMu = reflect(x64_div_p(), 33);
constexpr std::uint64_t kPoly = reflect(0x104C11DB7ULL, 33);
static_assert(kFold4Lo == 0x154442bd4ULL && kFold4Hi == 0x1c6e41596ULL &&
                  kFold1Lo == 0x1751997d0ULL && kFold1Hi == 0x0ccaa009eULL &&
                  kFold64 == 0x163cd6124ULL && kMu == 0x1f7011641ULL && kPoly == 0x1db710641ULL,
              "constants as published for CRC-32/IEEE in the Intel paper");

#define GBESIM_PCLMUL __attribute__((target("pclmul,sse4.1")))
#define GBESIM_VPCLMUL __attribute__((target("avx512f,vpclmulqdq,pclmul,sse4.1")))

GBESIM_PCLMUL inline __m128i constant_pair(std::uint64_t first, std::uint64_t second) {
  return _mm_set_epi64x(static_cast<long long>(second), static_cast<long long>(first));
}

GBESIM_PCLMUL inline __m128i fold(__m128i x, __m128i k, __m128i next) {
  const __m128i lo = _mm_clmulepi64_si128(x, k, 0x00);
  const __m128i hi = _mm_clmulepi64_si128(x, k, 0x11);
  return _mm_xor_si128(_mm_xor_si128(lo, hi), next);
}

GBESIM_PCLMUL inline __m128i load16(const std::uint8_t* at) {
  return _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
}

// The CRC register (not inverted) after a lane that holds the whole message so far, the
// register having been XORed into its first 32 bits: fold 128 -> 96 -> 64 bits, then Barrett.
GBESIM_PCLMUL std::uint32_t reduce(__m128i x) {
  const __m128i mask32 = _mm_set_epi32(0, 0, 0, -1);
  // Y = first64 * (x^96 mod P) + last64 * x^32: 96 bits.
  __m128i y = _mm_xor_si128(_mm_clmulepi64_si128(x, constant_pair(kFold1Hi, 0), 0x00),
                            _mm_srli_si128(x, 8));
  // Z = first32(Y) * (x^64 mod P) + last64(Y): 64 bits.
  __m128i z =
      _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(y, mask32), constant_pair(kFold64, 0), 0x00),
                    _mm_srli_si128(y, 4));
  // Barrett: T = first32(first32(Z) * mu); remainder = last32(Z + T * P).
  const __m128i barrett = constant_pair(kMu, kPoly);
  __m128i t = _mm_clmulepi64_si128(_mm_and_si128(z, mask32), barrett, 0x00);
  t = _mm_clmulepi64_si128(_mm_and_si128(t, mask32), barrett, 0x10);
  return static_cast<std::uint32_t>(_mm_extract_epi32(_mm_xor_si128(z, t), 1));
}

// Continues from one lane `x` over whole 16-byte blocks, then reduces and finishes the tail.
GBESIM_PCLMUL std::uint32_t finish(__m128i x, const std::uint8_t* p, std::size_t n) {
  const __m128i k1 = constant_pair(kFold1Lo, kFold1Hi);
  while (n >= 16) {
    x = fold(x, k1, load16(p));
    p += 16;
    n -= 16;
  }
  const std::uint32_t c = reduce(x);
  return n == 0 ? c : update_tables(c, p, n);
}

// Needs n >= 16.
GBESIM_PCLMUL std::uint32_t update_pclmul(std::uint32_t c, const std::uint8_t* p, std::size_t n) {
  const __m128i first = _mm_xor_si128(load16(p), _mm_cvtsi32_si128(static_cast<int>(c)));
  if (n < 64) return finish(first, p + 16, n - 16);
  __m128i x0 = first;
  __m128i x1 = load16(p + 16);
  __m128i x2 = load16(p + 32);
  __m128i x3 = load16(p + 48);
  p += 64;
  n -= 64;
  const __m128i k4 = constant_pair(kFold4Lo, kFold4Hi);
  while (n >= 64) {
    x0 = fold(x0, k4, load16(p));
    x1 = fold(x1, k4, load16(p + 16));
    x2 = fold(x2, k4, load16(p + 32));
    x3 = fold(x3, k4, load16(p + 48));
    p += 64;
    n -= 64;
  }
  // The four lanes onto the last at once (by 384, 256 and 128 bits): three independent
  // multiplies instead of a chain of three.
  const __m128i k3 = constant_pair(fold_constant(3 * 128 + 32), fold_constant(3 * 128 - 32));
  const __m128i k2 = constant_pair(fold_constant(2 * 128 + 32), fold_constant(2 * 128 - 32));
  const __m128i k1 = constant_pair(kFold1Lo, kFold1Hi);
  const __m128i zero = _mm_setzero_si128();
  const __m128i x =
      _mm_xor_si128(_mm_xor_si128(fold(x0, k3, x3), fold(x1, k2, zero)), fold(x2, k1, zero));
  return finish(x, p, n);
}

// GCC 12's AVX-512 headers build broadcast and extract results from _mm512_undefined_epi32(),
// which -Wuninitialized reports as a use of an uninitialised value: a known false positive.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

GBESIM_VPCLMUL inline __m512i load64(const std::uint8_t* at) {
  return _mm512_loadu_si512(at);
}

GBESIM_VPCLMUL inline __m512i wide(std::uint64_t first, std::uint64_t second) {
  return _mm512_broadcast_i32x4(
      _mm_set_epi64x(static_cast<long long>(second), static_cast<long long>(first)));
}

GBESIM_VPCLMUL inline __m512i fold512(__m512i x, __m512i k, __m512i next) {
  const __m512i lo = _mm512_clmulepi64_epi128(x, k, 0x00);
  const __m512i hi = _mm512_clmulepi64_epi128(x, k, 0x11);
  return _mm512_ternarylogic_epi64(lo, hi, next, 0x96);  // lo ^ hi ^ next
}

// The same with 512-bit registers (four lanes each), 256 bytes per step. Needs n >= 256.
GBESIM_VPCLMUL std::uint32_t update_vpclmul(std::uint32_t c, const std::uint8_t* p, std::size_t n) {
  __m512i z0 =
      _mm512_xor_si512(load64(p), _mm512_zextsi128_si512(_mm_cvtsi32_si128(static_cast<int>(c))));
  __m512i z1 = load64(p + 64);
  __m512i z2 = load64(p + 128);
  __m512i z3 = load64(p + 192);
  p += 256;
  n -= 256;
  const __m512i k16 = wide(fold_constant(16 * 128 + 32), fold_constant(16 * 128 - 32));
  while (n >= 256) {
    z0 = fold512(z0, k16, load64(p));
    z1 = fold512(z1, k16, load64(p + 64));
    z2 = fold512(z2, k16, load64(p + 128));
    z3 = fold512(z3, k16, load64(p + 192));
    p += 256;
    n -= 256;
  }
  const __m512i k4 = wide(kFold4Lo, kFold4Hi);
  __m512i z = fold512(z0, k4, z1);
  z = fold512(z, k4, z2);
  z = fold512(z, k4, z3);
  while (n >= 64) {
    z = fold512(z, k4, load64(p));
    p += 64;
    n -= 64;
  }
  // Lanes 0..2 move forward by 384, 256 and 128 bits onto lane 3.
  const __m512i kmix =
      _mm512_set_epi64(0, 0, static_cast<long long>(kFold1Hi), static_cast<long long>(kFold1Lo),
                       static_cast<long long>(fold_constant(256 - 32)),
                       static_cast<long long>(fold_constant(256 + 32)),
                       static_cast<long long>(fold_constant(384 - 32)),
                       static_cast<long long>(fold_constant(384 + 32)));
  const __m512i t = _mm512_xor_si512(_mm512_clmulepi64_epi128(z, kmix, 0x00),
                                     _mm512_clmulepi64_epi128(z, kmix, 0x11));
  __m128i x = _mm512_extracti32x4_epi32(z, 3);
  x = _mm_xor_si128(x, _mm512_castsi512_si128(t));
  x = _mm_xor_si128(x, _mm512_extracti32x4_epi32(t, 1));
  x = _mm_xor_si128(x, _mm512_extracti32x4_epi32(t, 2));
  return finish(x, p, n);
}
#pragma GCC diagnostic pop

const bool kHavePclmul = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
const bool kHaveVpclmul =
    kHavePclmul && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("vpclmulqdq");
#endif

}  // namespace

std::uint32_t crc32_register_update(std::uint32_t reg, const std::uint8_t* data,
                                    std::size_t length) {
  return update_tables(reg, data, length);
}

std::uint32_t crc32_portable(const std::uint8_t* data, std::size_t length) {
  return ~update_tables(0xFFFFFFFFU, data, length);
}

std::uint32_t crc32_extend(std::uint32_t crc, const std::uint8_t* data, std::size_t length) {
#if defined(__x86_64__)
  if (length >= 256 && kHaveVpclmul) return ~update_vpclmul(~crc, data, length);
  if (length >= 16 && kHavePclmul) return ~update_pclmul(~crc, data, length);
#endif
  return ~update_tables(~crc, data, length);
}

std::uint32_t crc32(const std::uint8_t* data, std::size_t length) {
  return crc32_extend(0, data, length);
}

void write_fcs(std::uint8_t* data, std::size_t length) {
  const std::uint32_t c = crc32(data, length);
  for (int i = 0; i < 4; ++i) data[length + i] = static_cast<std::uint8_t>(c >> (8 * i));
}

}  // namespace gbesim
