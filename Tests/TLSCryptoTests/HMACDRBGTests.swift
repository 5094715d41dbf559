import Testing
import TLSCrypto

/// Known answers from NIST CAVP "DRBG Test Vectors" (SP 800-90A), file HMAC_DRBG.rsp, section
/// [SHA-256] [PredictionResistance = False] [EntropyInputLen = 256] [NonceLen = 128]
/// [ReturnedBitsLen = 1024]. The CAVP procedure: instantiate, (reseed,) generate 1024 bits and
/// discard them, generate 1024 bits and compare them with ReturnedBits.
@Suite("HMAC-DRBG (SP 800-90A) and SystemRandom")
struct HMACDRBGTests {
    /// drbgvectors_no_reseed/HMAC_DRBG.rsp, [SHA-256], PersonalizationStringLen = 0,
    /// AdditionalInputLen = 0, COUNT = 0.
    @Test func cavpNoReseedNoPersonalization() {
        let drbg = HMACDRBG(entropy: Hex.bytes("ca851911349384bffe89de1cbdc46e6831e44d34a4fb935ee285dd14b71a7488"),
                            nonce: Hex.bytes("659ba96c601dc69fc902940805ec0ca8"))
        _ = drbg.generate(count: 128)
        #expect(Hex.string(drbg.generate(count: 128)) == """
            e528e9abf2dece54d47c7e75e5fe302149f817ea9fb4bee6f4199697d04d5b89d54fbb978a15b5c443c9ec21036d2460\
            b6f73ebad0dc2aba6e624abf07745bc107694bb7547bb0995f70de25d6b29e2d3011bb19d27676c07162c8b5ccde0668\
            961df86803482cb37ed6d5c0bb8d50cf1f50d476aa0458bdaba806f48be9dcb8
            """)
        #expect(drbg.reseedCounter == 3)
    }

    /// drbgvectors_no_reseed/HMAC_DRBG.rsp, [SHA-256], PersonalizationStringLen = 256,
    /// AdditionalInputLen = 0, COUNT = 0.
    @Test func cavpNoReseedWithPersonalization() {
        let drbg = HMACDRBG(entropy: Hex.bytes("5cacc68165a2e2ee20812f35ec73a79dbf30fd475476ac0c44fc6174cdac2b55"),
                            nonce: Hex.bytes("6f885496c1e63af620becd9e71ecb824"),
                            personalization: Hex.bytes("e72dd8590d4ed5295515c35ed6199e9d211b8f069b3058caa6670b96ef1208d0"))
        _ = drbg.bytes(count: 128)
        #expect(Hex.string(drbg.bytes(count: 128)) == """
            f1012cf543f94533df27fedfbf58e5b79a3dc517a9c402bdbfc9a0c0f721f9d53faf4aafdc4b8f7a1b580fcaa52338d4\
            bd95f58966a243cdcd3f446ed4bc546d9f607b190dd69954450d16cd0e2d6437067d8b44d19a6af7a7cfa8794e5fbd72\
            8e8fb2f2e8db5dd4ff1aa275f35886098e80ff844886060da8b1e7137846b23b
            """)
    }

    /// drbgvectors_pr_false/HMAC_DRBG.rsp, [SHA-256], PersonalizationStringLen = 0,
    /// AdditionalInputLen = 0, COUNT = 0 (instantiate, reseed, generate twice).
    @Test func cavpWithReseed() {
        let drbg = HMACDRBG(entropy: Hex.bytes("06032cd5eed33f39265f49ecb142c511da9aff2af71203bffaf34a9ca5bd9c0d"),
                            nonce: Hex.bytes("0e66f71edc43e42a45ad3c6fc6cdc4df"))
        drbg.reseed(entropy: Hex.bytes("01920a4e669ed3a85ae8a33b35a74ad7fb2a6bb4cf395ce00334a9c9a5a5d552"))
        #expect(drbg.reseedCounter == 1)
        _ = drbg.generate(count: 128)
        #expect(Hex.string(drbg.generate(count: 128)) == """
            76fc79fe9b50beccc991a11b5635783a83536add03c157fb30645e611c2898bb2b1bc215000209208cd506cb28da2a51\
            bdb03826aaf2bd2335d576d519160842e7158ad0949d1a9ec3e66ea1b1a064b005de914eac2e9d4f2d72a8616a802254\
            22918250ff66a41bd2f864a6a38cc5b6499dc43f7f2bd09e1e0f8f5885935124
            """)
    }

    @Test func sameSeedSameBytesDifferentSeedDifferentBytes() {
        let a = HMACDRBG(seed: 42), b = HMACDRBG(seed: 42), c = HMACDRBG(seed: 43)
        let first = a.bytes(count: 100)
        #expect(first == b.bytes(count: 100))
        #expect(first != c.bytes(count: 100))
        #expect(a.bytes(count: 100) != first)  // the state advances
        #expect(HMACDRBG(seed: [1, 2, 3]).bytes(count: 32) == HMACDRBG(seed: [1, 2, 3]).bytes(count: 32))
        #expect(HMACDRBG(seed: [1, 2, 3]).bytes(count: 32) != HMACDRBG(seed: [1, 2, 4]).bytes(count: 32))
    }

    @Test func additionalInputChangesOutput() {
        let a = HMACDRBG(seed: 7), b = HMACDRBG(seed: 7)
        #expect(a.generate(count: 32, additionalInput: [1]) != b.generate(count: 32))
    }

    @Test func requestsLongerThanTheLimitAreServed() {
        let drbg = HMACDRBG(seed: 1)
        let big = drbg.generate(count: HMACDRBG.maxBytesPerRequest + 10)
        #expect(big.count == HMACDRBG.maxBytesPerRequest + 10)
        #expect(drbg.generate(count: 0).isEmpty)
    }

    @Test func systemRandomGivesFreshBytes() {
        let system = SystemRandom()
        let a = system.bytes(count: 33), b = system.bytes(count: 33)
        #expect(a.count == 33)
        #expect(a != b)  // fails with probability 2^-264
        #expect(system.bytes(count: 0).isEmpty)
    }
}
